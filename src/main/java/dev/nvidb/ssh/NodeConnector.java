package dev.nvidb.ssh;

import dev.nvidb.error.SshException;
import dev.nvidb.ssh.HostKeyCheck.Mode;
import dev.nvidb.ssh.ResolvedTarget.IdentityOrigin;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.future.ConnectFuture;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.util.net.SshdSocketAddress;

/**
 * Opens connections: TCP and key exchange under the connect timeout, then authentication under
 * the auth timeout, hop by hop through any jump hosts (each reached by forwarding through the
 * previous one and verified against known_hosts under its own name).
 */
final class NodeConnector {

    private final SshClient client;
    private final SshSettings settings;
    private final KnownHostsFile knownHosts;
    private final Authenticator authenticator;

    NodeConnector(SshClient client, SshSettings settings, KnownHostsFile knownHosts, KeyFileCache keys) {
        this.client = client;
        this.settings = settings;
        this.knownHosts = knownHosts;
        this.authenticator = new Authenticator(settings, keys);
    }

    /** Connects and authenticates to {@code node} through its jump hosts. */
    Connection connect(ResolvedTarget node) {
        checkTargetIdentity(node);
        List<ClientSession> jumps = new ArrayList<>();
        try {
            ClientSession previous = openJumps(node, jumps);
            HopContext context = context(node, node, HostKeyCheck.modeFor(settings.hostKeyPolicy()));
            ClientSession session = handshake(context, node, previous);
            try {
                authenticator.authenticate(context, node, session);
            } catch (RuntimeException e) {
                session.close(true);
                throw e;
            }
            return new Connection(node, session, jumps);
        } catch (RuntimeException e) {
            jumps.forEach(jump -> jump.close(true));
            throw e;
        }
    }

    /** Exchanges keys with {@code node} (through verified jump hosts) and reports its key, without authenticating. */
    HostKeyCheck scan(ResolvedTarget node) {
        List<ClientSession> jumps = new ArrayList<>();
        try {
            ClientSession previous = openJumps(node, jumps);
            HopContext context = context(node, node, Mode.SCAN);
            try {
                handshake(context, node, previous).close(true);
            } catch (SshException e) {
                if (context.hostKeyCheck().presented() == null) {
                    throw e;
                }
            }
            return context.hostKeyCheck();
        } finally {
            jumps.forEach(jump -> jump.close(true));
        }
    }

    private ClientSession openJumps(ResolvedTarget node, List<ClientSession> opened) {
        ClientSession previous = null;
        for (ResolvedTarget hop : node.jumps()) {
            HopContext context = context(node, hop, HostKeyCheck.modeFor(settings.hostKeyPolicy()));
            ClientSession session = handshake(context, hop, previous);
            opened.add(session);
            authenticator.authenticate(context, hop, session);
            previous = session;
        }
        return previous;
    }

    private HopContext context(ResolvedTarget node, ResolvedTarget hop, Mode mode) {
        HopLabel label = HopLabel.of(node, hop);
        return new HopContext(label, new HostKeyCheck(label, mode, knownHosts), hop.auth());
    }

    /** TCP connect and key exchange, both within the connect timeout; the host key is checked on the way. */
    private ClientSession handshake(HopContext context, ResolvedTarget hop, ClientSession via) {
        HopLabel label = context.label();
        Duration limit = settings.connectTimeout();
        long deadline = System.nanoTime() + limit.toNanos();
        InetSocketAddress address = via == null ? new InetSocketAddress(hop.hostname(), hop.port()) : forward(via, label);
        if (address.isUnresolved()) {
            throw new SshException(label.text() + ": unknown host name " + hop.hostname(),
                    "check HostName in ~/.ssh/config or the node's host in nvidb's config");
        }
        ClientSession session = tcpConnect(context, hop, address, limit);
        try {
            context.keysExchanged().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return session;
        } catch (TimeoutException e) {
            session.close(true);
            throw Failures.timeout(label, limit, "connecting");
        } catch (ExecutionException e) {
            session.close(true);
            if (context.hostKeyCheck().refused()) {
                throw context.hostKeyCheck().refusal();
            }
            String stage = via == null ? "exchanging keys" : "exchanging keys (through the jump host)";
            throw Failures.of(label, stage, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            session.close(true);
            throw new SshException(label.text() + ": interrupted while connecting", null, e);
        }
    }

    private ClientSession tcpConnect(HopContext context, ResolvedTarget hop, InetSocketAddress address, Duration limit) {
        HopLabel label = context.label();
        ConnectFuture future;
        try {
            future = client.connect(hop.username(), address, context.asRepository(), null);
            if (!future.await(limit.toMillis())) {
                future.cancel();
                throw Failures.timeout(label, limit, "connecting");
            }
        } catch (IOException e) {
            throw Failures.of(label, "connecting", e);
        }
        if (future.getException() != null) {
            throw Failures.of(label, "connecting", future.getException());
        }
        return future.getSession();
    }

    private static InetSocketAddress forward(ClientSession via, HopLabel label) {
        try {
            SshdSocketAddress bound = via.createLocalPortForwardingTracker(
                    new SshdSocketAddress("127.0.0.1", 0), new SshdSocketAddress(label.host(), label.port()))
                    .getBoundAddress();
            return new InetSocketAddress("127.0.0.1", bound.getPort());
        } catch (IOException e) {
            throw Failures.of(label, "setting up the jump", e);
        }
    }

    private void checkTargetIdentity(ResolvedTarget node) {
        if (node.identityOrigin() == IdentityOrigin.TARGET && node.auth().usesKeyFiles()) {
            var file = node.identityFiles().get(0);
            if (!Files.isRegularFile(file)) {
                throw new SshException(node.node() + ": identity file " + settings.display(file) + " does not exist",
                        "fix identity_file for node " + node.node() + " or create the key with ssh-keygen");
            }
        }
    }
}
