package dev.nvidb.ssh;

import dev.nvidb.error.SshException;
import java.io.IOException;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.sshd.client.auth.UserAuthFactory;
import org.apache.sshd.client.auth.password.PasswordAuthenticationReporter;
import org.apache.sshd.client.auth.password.UserAuthPasswordFactory;
import org.apache.sshd.client.auth.pubkey.PublicKeyAuthenticationReporter;
import org.apache.sshd.client.auth.pubkey.UserAuthPublicKeyFactory;
import org.apache.sshd.client.future.AuthFuture;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;

/**
 * Authenticates one session as its target's auth setting allows: public keys from the agent
 * and/or identity files, or a password (configured, or asked at the terminal), within the auth
 * timeout. A failure names the user, what was tried and what the server accepts.
 */
final class Authenticator {

    private final SshSettings settings;
    private final KeyFileCache keys;

    Authenticator(SshSettings settings, KeyFileCache keys) {
        this.settings = settings;
        this.keys = keys;
    }

    void authenticate(HopContext context, ResolvedTarget hop, ClientSession session) {
        HopLabel label = context.label();
        AuthLog log = context.authLog();
        List<UserAuthFactory> methods = new ArrayList<>();
        if (hop.auth().usesPassword()) {
            methods.add(UserAuthPasswordFactory.INSTANCE);
            session.addPasswordIdentity(password(label, hop));
        } else {
            methods.add(UserAuthPublicKeyFactory.INSTANCE);
        }
        session.setUserAuthFactories(methods);
        session.setKeyIdentityProvider(hop.auth().usesKeyFiles()
                ? new IdentityFileKeys(hop, keys, log, settings) : KeyIdentityProvider.EMPTY_KEYS_PROVIDER);
        session.setPublicKeyAuthenticationReporter(publicKeyReporter(log));
        session.setPasswordAuthenticationReporter(passwordReporter(log));
        AuthFuture auth;
        try {
            auth = session.auth();
            if (!auth.await(settings.authTimeout().toMillis())) {
                session.close(true);
                throw Failures.timeout(label, settings.authTimeout(), "authenticating as " + hop.username());
            }
        } catch (IOException e) {
            session.close(true);
            throw Failures.of(label, "authenticating as " + hop.username(), e);
        }
        if (!auth.isSuccess()) {
            session.close(true);
            throw log.failure(label, hop.username(), hint(hop));
        }
    }

    private String password(HopLabel label, ResolvedTarget hop) {
        if (hop.password() != null) {
            return hop.password();
        }
        Optional<char[]> answer = settings.prompt().ask(hop.username() + "@" + hop.hostname() + "'s password: ");
        if (answer.isEmpty()) {
            throw new SshException(label.text() + ": password authentication needs a password and there is no "
                    + "terminal to ask for it", "set the node's password, or use auth: key with an ssh key");
        }
        char[] secret = answer.get();
        String password = new String(secret);
        Arrays.fill(secret, '\0');
        return password;
    }

    private static String hint(ResolvedTarget hop) {
        return switch (hop.auth()) {
            case PASSWORD -> "check the user name and password";
            case AGENT -> "add the key to ssh-agent (ssh-add) and its public key to ~/.ssh/authorized_keys on the host";
            default -> "install your public key on the host (ssh-copy-id " + hop.username() + "@" + hop.hostname()
                    + ") or set identity_file";
        };
    }

    private static PublicKeyAuthenticationReporter publicKeyReporter(AuthLog log) {
        return new PublicKeyAuthenticationReporter() {
            @Override
            public void signalAuthenticationFailure(ClientSession session, String service, KeyPair identity,
                    boolean partial, List<String> serverMethods) {
                log.serverAccepts(serverMethods);
            }

            @Override
            public void signalAuthenticationSuccess(ClientSession session, String service, KeyPair identity) {
                log.succeededWithKey(identity.getPublic());
            }
        };
    }

    private static PasswordAuthenticationReporter passwordReporter(AuthLog log) {
        return new PasswordAuthenticationReporter() {
            @Override
            public void signalAuthenticationAttempt(ClientSession session, String service, String oldPassword,
                    boolean modified, String newPassword) {
                log.tried("password");
            }

            @Override
            public void signalAuthenticationFailure(ClientSession session, String service, String password,
                    boolean partial, List<String> serverMethods) {
                log.serverAccepts(serverMethods);
            }

            @Override
            public void signalAuthenticationSuccess(ClientSession session, String service, String password) {
                log.succeededWithPassword();
            }
        };
    }
}
