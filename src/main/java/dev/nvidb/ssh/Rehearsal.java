package dev.nvidb.ssh;

import dev.nvidb.model.HostKeyPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The client half of a whole SSH exchange on loopback: connect, verify and record the host
 * key, authenticate with a key file, exec with input, read the answer. The build's class-data
 * training ({@code src/cds}) starts a server outside this jar and runs {@code nvidb __warmup
 * --ssh PORT --identity FILE}, which calls this, so the launcher's archive covers the SSH path
 * of a real probe. The production jar ships no SSH server.
 */
public final class Rehearsal {

    private Rehearsal() {
    }

    /** Runs one exec of {@code command} with {@code stdin} on the server at 127.0.0.1:{@code port}. */
    public static ExecResult run(Path dir, int port, Path identity, String command, byte[] stdin) {
        SshSettings settings = new SshSettings(Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(10),
                HostKeyPolicy.ACCEPT_NEW, dir.resolve("ssh_config"), dir.resolve("no-system-ssh-config"),
                dir.resolve("known_hosts"), dir, Map.of(),
                PassphrasePrompt.none());
        SshTarget target = new SshTarget("rehearsal", "127.0.0.1", port, "nvidb", SshAuth.AUTO, identity, null, null);
        try (SshPool pool = new SshPool(settings)) {
            return pool.exec(target, command, stdin, Duration.ofSeconds(10));
        }
    }
}
