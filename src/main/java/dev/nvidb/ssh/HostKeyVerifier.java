package dev.nvidb.ssh;

import java.net.SocketAddress;
import java.security.PublicKey;
import org.apache.sshd.client.keyverifier.ServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;

/** MINA's hook for host keys: hands each key to the {@link HostKeyCheck} of its connection; unknown sessions are refused. */
final class HostKeyVerifier implements ServerKeyVerifier {

    @Override
    public boolean verifyServerKey(ClientSession session, SocketAddress remoteAddress, PublicKey serverKey) {
        HopContext context = HopContext.of(session);
        return context != null && context.hostKeyCheck().verify(serverKey);
    }
}
