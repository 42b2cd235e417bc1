package dev.nvidb.cds;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.List;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;

/**
 * Build-time training run for the launcher's class-data sharing archive (src/cds/train.sh).
 * Not part of the production jar: it runs with the full sshd-core on the class path, starts an
 * SSH server on loopback that echoes each exec's input, and then runs {@code nvidb __warmup}
 * against it, so the class list covers a real probe's client side. The server's own classes
 * are listed too, but the archive is dumped with the production jar alone, which lacks them.
 */
public final class CdsTraining {

    private CdsTraining() {
    }

    public static void main(String[] args) throws IOException, GeneralSecurityException {
        // train.sh names a folder of its work directory, which it removes: the JVM ends by halt
        // (a submit's exit hook), so files marked deleteOnExit would stay behind in /tmp.
        Path dir = args.length > 0 ? Files.createDirectories(Path.of(args[0]))
                : Files.createTempDirectory("nvidb-cds-training");
        KeyPair hostKey = KeyUtils.generateKeyPair(KeyPairProvider.SSH_ED25519, 256);
        KeyPair clientKey = KeyUtils.generateKeyPair(KeyPairProvider.SSH_ED25519, 256);
        Path identity = dir.resolve("id_ed25519");
        try (OutputStream out = Files.newOutputStream(identity)) {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(clientKey, "training", null, out);
        }
        identity.toFile().deleteOnExit();
        dir.toFile().deleteOnExit();
        SshServer server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(0);
        server.setKeyPairProvider(session -> List.of(hostKey));
        server.setPublickeyAuthenticator((user, key, session) -> KeyUtils.compareKeys(key, clientKey.getPublic()));
        server.setCommandFactory((channel, line) -> new EchoCommand());
        server.start();
        // Main exits the JVM with the warm-up's exit code; the server goes with it.
        dev.nvidb.cli.Main.main(new String[] {"__warmup", "--ssh", Integer.toString(server.getPort()),
            "--identity", identity.toString()});
    }

    /** Reads all input, writes it back, exits 0. */
    private static final class EchoCommand implements Command {
        private InputStream in;
        private OutputStream out;
        private ExitCallback exit;

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
                    out.write(in.readAllBytes());
                    out.flush();
                    exit.onExit(0);
                } catch (IOException e) {
                    exit.onExit(1, e.getMessage());
                }
            }, "training-echo");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void destroy(ChannelSession channel) {
            // the thread ends with its input
        }
    }
}
