package dev.nvidb.ssh;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.sshd.client.future.AuthFuture;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.client.session.ClientUserAuthService;
import org.apache.sshd.client.session.ClientUserAuthServiceFactory;
import org.apache.sshd.common.Service;
import org.apache.sshd.common.ServiceFactory;
import org.apache.sshd.common.SshConstants;
import org.apache.sshd.common.io.IoWriteFuture;
import org.apache.sshd.common.session.Session;

/**
 * The client's {@code ssh-userauth} service without the {@code none} probe. MINA, like OpenSSH,
 * first sends a {@code none} request to learn which methods the server takes: a round trip spent
 * before the first real attempt, on every connection. nvidb offers each hop exactly one method
 * ({@code publickey}, or {@code password} when the node says so), so the first request here is
 * already that method; a server that refuses it names the methods it takes in its answer, exactly
 * as its answer to {@code none} would have, and authentication goes on (or fails) as before. Across
 * a network that is one round trip less per connection (issue 12; {@code SshRoundTripsTest}).
 */
final class DirectUserAuthService extends ClientUserAuthService {

    DirectUserAuthService(Session session) {
        super(session);
    }

    @Override
    protected IoWriteFuture sendInitialAuthRequest(ClientSession session, String service) throws IOException {
        serverMethods = new ArrayList<>(clientMethods);
        AuthFuture auth = authFutureHolder.get();
        try {
            tryNext(SshConstants.SSH_MSG_USERAUTH_FAILURE, auth);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
        return null;   // its only caller (the deferred initial request) ignores the future
    }

    /** The client's service factories with MINA's user-auth service replaced by this one. */
    static List<ServiceFactory> replacing(List<? extends ServiceFactory> factories) {
        List<ServiceFactory> replaced = new ArrayList<>();
        for (ServiceFactory factory : factories) {
            replaced.add(factory instanceof ClientUserAuthServiceFactory ? new Factory() : factory);
        }
        return replaced;
    }

    private static final class Factory extends ClientUserAuthServiceFactory {
        @Override
        public Service create(Session session) throws IOException {
            return new DirectUserAuthService(session);
        }
    }
}
