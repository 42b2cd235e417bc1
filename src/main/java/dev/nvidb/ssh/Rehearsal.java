package dev.nvidb.ssh;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;

/**
 * A whole SSH exchange against an in-process server on loopback: connect, verify and record
 * the host key, authenticate with an ed25519 key file, exec with input, read the answer. The
 * launcher runs it once (through {@code nvidb __warmup}) to list the classes a real probe
 * loads, so its class-data-sharing archive covers the SSH path as well.
 */
public final class Rehearsal {

    private Rehearsal() {
    }

    /** Runs one exec of {@code command} with {@code stdin}; the server answers with {@code reply}. */
    public static ExecResult run(Path dir, String command, byte[] stdin, byte[] reply) throws IOException {
        KeyPair hostKey;
        KeyPair clientKey;
        try {
            hostKey = KeyUtils.generateKeyPair(KeyPairProvider.SSH_ED25519, 256);
            clientKey = KeyUtils.generateKeyPair(KeyPairProvider.SSH_ED25519, 256);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot generate rehearsal keys", e);
        }
        Path identity = dir.resolve("id_ed25519");
        try (OutputStream out = Files.newOutputStream(identity)) {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(clientKey, "rehearsal", null, out);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot write the rehearsal key", e);
        }
        SshServer server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(0);
        server.setKeyPairProvider(session -> List.of(hostKey));
        server.setPublickeyAuthenticator((user, key, session) -> KeyUtils.compareKeys(key, clientKey.getPublic()));
        server.setCommandFactory((channel, line) -> new CannedCommand(reply));
        server.start();
        try {
            SshSettings settings = new SshSettings(Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(10),
                    HostKeyPolicy.ACCEPT_NEW, dir.resolve("ssh_config"), dir.resolve("known_hosts"), dir, Map.of(),
                    PassphrasePrompt.none());
            SshTarget target = new SshTarget("rehearsal", "127.0.0.1", server.getPort(), "nvidb", SshAuth.AUTO,
                    identity, null, null);
            try (SshPool pool = new SshPool(settings)) {
                return pool.exec(target, command, stdin, Duration.ofSeconds(10));
            }
        } finally {
            server.stop(true);
        }
    }

    /** Reads all input, writes the canned reply, exits 0. */
    private static final class CannedCommand implements Command {
        private final byte[] reply;
        private InputStream in;
        private OutputStream out;
        private ExitCallback exit;

        CannedCommand(byte[] reply) {
            this.reply = reply;
        }

        @Override
        public void setInputStream(InputStream stream) {
            in = stream;
        }

        @Override
        public void setOutputStream(OutputStream stream) {
            out = stream;
        }

        @Override
        public void setErrorStream(OutputStream stream) {
            // nothing is written to stderr
        }

        @Override
        public void setExitCallback(ExitCallback callback) {
            exit = callback;
        }

        @Override
        public void start(ChannelSession channel, Environment env) {
            Thread thread = new Thread(() -> {
                try {
                    in.readAllBytes();
                    out.write(reply);
                    out.flush();
                    exit.onExit(0);
                } catch (IOException e) {
                    exit.onExit(1, e.getMessage());
                }
            }, "rehearsal-command");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void destroy(ChannelSession channel) {
            // the thread ends with its input
        }
    }
}
