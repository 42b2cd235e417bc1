package dev.nvidb.ssh;

import java.util.concurrent.CompletableFuture;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.AttributeRepository.AttributeKey;
import org.apache.sshd.common.session.Session;

/**
 * Per-connection state shared with MINA's callbacks through the session's connection context:
 * which host this is, its host-key check, its authentication log, its auth setting,
 * and a future that completes once keys are exchanged (or fails when the session dies first).
 */
final class HopContext {

    static final AttributeKey<HopContext> KEY = new AttributeKey<>();

    private final HopLabel label;
    private final HostKeyCheck hostKeyCheck;
    private final AuthLog authLog = new AuthLog();
    private final SshAuth auth;
    private final CompletableFuture<Void> keysExchanged = new CompletableFuture<>();
    private volatile Throwable sessionError;

    HopContext(HopLabel label, HostKeyCheck hostKeyCheck, SshAuth auth) {
        this.label = label;
        this.hostKeyCheck = hostKeyCheck;
        this.auth = auth;
    }

    /** The context of {@code session}, or null for sessions this package did not open. */
    static HopContext of(Session session) {
        if (session instanceof ClientSession client && client.getConnectionContext() != null) {
            return client.getConnectionContext().getAttribute(KEY);
        }
        return null;
    }

    AttributeRepository asRepository() {
        return AttributeRepository.ofKeyValuePair(KEY, this);
    }

    HopLabel label() {
        return label;
    }

    HostKeyCheck hostKeyCheck() {
        return hostKeyCheck;
    }

    AuthLog authLog() {
        return authLog;
    }

    /** The auth setting of this host: whether the agent may be used, and whether it is the only way. */
    SshAuth auth() {
        return auth;
    }

    CompletableFuture<Void> keysExchanged() {
        return keysExchanged;
    }

    void sessionError(Throwable error) {
        if (sessionError == null) {
            sessionError = error;
        }
    }

    Throwable sessionError() {
        return sessionError;
    }
}
