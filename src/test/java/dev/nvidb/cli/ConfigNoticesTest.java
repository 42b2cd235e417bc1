package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the configuration commands tell a new user: adding the first server moves the queue
 * off this machine (said once, by add and import), and {@code info} does not claim forwarding
 * works.
 */
class ConfigNoticesTest {

    private static final String NOTICE = "note: the queue now runs jobs on the configured servers only";

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void emptyHome() throws Exception {
        env = Map.of("HOME", home.toString(), "NVIDB_HOME", home.resolve(".nvidb").toString());
        Files.createDirectories(home.resolve(".nvidb"));
    }

    @Test
    void firstAddedServerSaysTheQueueLeavesThisMachine() {
        CliRun first = CliRun.run(env, "add", "--hostname", "gpu-a");
        assertEquals(0, first.exitCode(), first.stderr());
        assertTrue(first.stderr().contains(NOTICE), first.stderr());
        assertTrue(first.stderr().contains("set 'include_local: true' under 'queue:' in ~/.nvidb/queue.yml"),
                first.stderr());
        CliRun second = CliRun.run(env, "add", "--hostname", "gpu-b");
        assertEquals(0, second.exitCode(), second.stderr());
        assertFalse(second.stderr().contains(NOTICE), "said once: " + second.stderr());
    }

    @Test
    void noNoticeWhenThisMachineStaysAQueueNode() throws Exception {
        Files.writeString(home.resolve(".nvidb/queue.yml"), "queue:\n  include_local: true\n");
        CliRun run = CliRun.run(env, "add", "--hostname", "gpu-a");
        assertEquals(0, run.exitCode(), run.stderr());
        assertFalse(run.stderr().contains(NOTICE), run.stderr());
    }

    @Test
    void noNoticeWhenQueueYmlHasItsOwnServers() throws Exception {
        Files.writeString(home.resolve(".nvidb/queue.yml"), "servers: []\n");
        CliRun run = CliRun.run(env, "add", "--hostname", "gpu-a");
        assertEquals(0, run.exitCode(), run.stderr());
        assertFalse(run.stderr().contains(NOTICE), "queue.yml's servers: [] keeps the queue here: " + run.stderr());
    }

    @Test
    void importSaysItToo() throws Exception {
        Path sshConfig = home.resolve("ssh_config");
        Files.writeString(sshConfig, "Host gpu-x\n  HostName 10.0.0.5\n  User alice\n");
        CliRun run = CliRun.run(env, "import", sshConfig.toString(), "--json");
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stderr().contains(NOTICE), run.stderr());
        assertTrue(run.stdout().startsWith("{"), "stdout stays one JSON document: " + run.stdout());
    }

    @Test
    void infoDoesNotClaimForwardingWorks() throws Exception {
        Files.writeString(home.resolve(".nvidb/queue.yml"), "remote:\n  host: queue-host\n");
        CliRun run = CliRun.run(env, "info");
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().contains("queue.yml names queue-host, but forwarding is not built yet"), run.stdout());
        assertFalse(run.stdout().contains("every queue command runs on"), run.stdout());
    }
}
