package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.cli.ExitCodes.Outcome;
import dev.nvidb.error.ConfigException;
import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.error.NodeException;
import dev.nvidb.error.SshException;
import dev.nvidb.error.StoreException;
import dev.nvidb.error.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The exit-code contract (DESIGN.md §5, docs/exit-codes.md): 0 ok; 1 failed, a waited job
 * failed, alerts open; 2 usage or a wait that timed out; 130 interrupted, wherever the
 * interrupt lands; 70 a bug. First the mapper's table, then each outcome as a user meets it.
 */
class ExitCodesTest {

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void localQueue() throws Exception {
        env = Map.of("HOME", home.toString(), "NVIDB_HOME", home.resolve(".nvidb").toString());
        Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(home.resolve(".nvidb/queue.yml"), "queue:\n  local_node_name: here\n  tick_min_interval: 0\n");
    }

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    static Stream<Arguments> outcomes() {
        return Stream.of(
                Arguments.of(Outcome.OK, 0),
                Arguments.of(Outcome.FAILED, 1),
                Arguments.of(Outcome.JOB_FAILED, 1),
                Arguments.of(Outcome.ALERTS_OPEN, 1),
                Arguments.of(Outcome.USAGE, 2),
                Arguments.of(Outcome.WAIT_TIMED_OUT, 2),
                Arguments.of(Outcome.INTERRUPTED, 130),
                Arguments.of(Outcome.INTERNAL, 70));
    }

    @ParameterizedTest
    @MethodSource("outcomes")
    void eachOutcomeHasItsCode(Outcome outcome, int code) {
        assertEquals(code, ExitCodes.of(outcome));
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(new UsageException("bad"), 2),
                Arguments.of(new ConfigException("bad"), 2),
                Arguments.of(new SshException("down"), 1),
                Arguments.of(new NodeException("no agent"), 1),
                Arguments.of(new StoreException("locked"), 1),
                Arguments.of(new InterruptedByUser("interrupted while waiting"), 130),
                Arguments.of(new IllegalStateException("waiting", new InterruptedException()), 130),
                Arguments.of(new SshException("interrupted while connecting", null, new InterruptedException()), 130),
                Arguments.of(new SshException("no answer", null, new java.net.SocketTimeoutException()), 1),
                Arguments.of(new NodeException("closed", null, new java.nio.channels.ClosedByInterruptException()), 130),
                Arguments.of(new IllegalStateException("a bug"), 70));
    }

    @ParameterizedTest
    @MethodSource("failures")
    void eachFailureHasItsCode(RuntimeException failure, int code) {
        assertEquals(code, ExitCodes.of(failure));
    }

    @Test
    void anyFailureOfAnInterruptedThreadIsAnInterrupt() {
        Thread.currentThread().interrupt();
        assertEquals(130, ExitCodes.of(new IllegalStateException("whatever a lower layer threw")));
        assertEquals(130, ExitCodes.of(new UsageException("interrupted while waiting")));
    }

    private CliRun run(String... args) {
        return CliRun.run(env, args);
    }

    @Test
    void waitedJobCompletedIsZeroFailedIsOne() {
        assertEquals(0, run("job", "submit", "--gpus", "0", "--wait", "--", "true").exitCode());
        CliRun failed = run("job", "submit", "--gpus", "0", "--wait", "--", "false");
        assertEquals(1, failed.exitCode(), failed.stderr());
        assertEquals(1, run("job", "wait", "2").exitCode());
        assertEquals(1, run("job", "wait", "2", "--json").exitCode());
    }

    @Test
    void waitThatTimesOutIsTwo() {
        assertEquals(0, run("queue", "ignore", "here").exitCode());
        assertEquals(0, run("job", "submit", "--gpus", "0", "--", "true").exitCode());
        CliRun waited = run("job", "wait", "1", "--timeout", "0");
        assertEquals(2, waited.exitCode(), waited.stderr());
        assertTrue(waited.stderr().contains("gave up waiting"), waited.stderr());
        CliRun json = run("job", "wait", "1", "--timeout", "0", "--json");
        assertEquals(2, json.exitCode());
        assertTrue(json.stdout().contains("\"timed_out\" : true"), json.stdout());
    }

    @Test
    void openAlertsAreOne() {
        assertEquals(0, run("queue", "alerts").exitCode());
        assertEquals(1, run("job", "submit", "--gpus", "0", "--wait", "--", "false").exitCode());
        assertEquals(1, run("queue", "alerts").exitCode());
        assertEquals(1, run("queue", "alerts", "--json").exitCode());
        assertEquals(0, run("queue", "ack", "--all").exitCode());
        assertEquals(0, run("queue", "alerts").exitCode());
    }

    @Test
    void jobResultHasTheSameCodeWithAndWithoutJson() {
        assertEquals(0, run("job", "submit", "--gpus", "0", "--no-tick", "--", "true").exitCode());
        CliRun text = run("job", "result", "1", "--no-tick");
        CliRun json = run("job", "result", "1", "--no-tick", "--json");
        assertEquals(1, text.exitCode());
        assertEquals(1, json.exitCode());
        assertTrue(json.stdout().contains("\"ok\" : false"), json.stdout());
        assertEquals(0, run("job", "result", "1", "--set", "{\"loss\": 0.1}").exitCode());
        assertEquals(0, run("job", "result", "1", "--no-tick").exitCode());
        assertEquals(0, run("job", "result", "1", "--no-tick", "--json").exitCode());
    }

    @Test
    void usageErrorsAndBareGroupsAreTwo() {
        assertEquals(2, run("job", "show", "abc").exitCode());
        assertEquals(2, run("job", "show", "42").exitCode());
        assertEquals(2, run("job", "--frobnicate").exitCode());
        assertEquals(2, run("job").exitCode());
        assertEquals(2, run("queue").exitCode());
    }

    /**
     * Ctrl-C on a real process: nvidb installs no signal handler, so the JVM ends it with 130
     * (128 + SIGINT) even in the middle of a wait. The signal is sent once the process has the
     * queue open; a process that inherited SIGINT as ignored (a background job of a
     * non-interactive shell) cannot be tested and is skipped.
     */
    @Test
    void ctrlCOnAWaitingProcessIsOneHundredThirty() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc");
        assertEquals(0, run("queue", "ignore", "here").exitCode());
        assertEquals(0, run("job", "submit", "--gpus", "0", "--", "true").exitCode());
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "job", "wait", "1");
        builder.environment().putAll(env);
        builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.redirectErrorStream(true).start();
        try {
            Path queueDb = home.resolve(".nvidb/queue.db").toRealPath();
            java.time.Instant deadline = java.time.Instant.now().plusSeconds(60);
            while (!holds(process.pid(), queueDb)) {
                assertTrue(process.isAlive(), "job wait ended before it was interrupted");
                assertTrue(java.time.Instant.now().isBefore(deadline), "job wait never opened the queue");
                Thread.sleep(20); // a poll with a deadline: the child opens the queue in its own time
            }
            org.junit.jupiter.api.Assumptions.assumeFalse(sigintIgnored(process.pid()), "SIGINT is ignored here");
            assertEquals(0, new ProcessBuilder("kill", "-INT", String.valueOf(process.pid())).start().waitFor());
            assertTrue(process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "Ctrl-C ends job wait");
            assertEquals(130, process.exitValue());
        } finally {
            process.destroyForcibly();
        }
    }

    private static boolean holds(long pid, Path file) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(file);
                } catch (java.io.IOException e) {
                    return false;
                }
            });
        } catch (java.io.IOException e) {
            return false;
        }
    }

    static boolean sigintIgnored(long pid) throws java.io.IOException {
        String ignored = Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status")).stream()
                .filter(line -> line.startsWith("SigIgn:")).findFirst().orElse("SigIgn: 0").substring(7).strip();
        return (Long.parseLong(ignored, 16) & 2L) != 0;
    }

    @Test
    void interruptIsOneHundredThirtyWhereverItLands() {
        assertEquals(0, run("queue", "ignore", "here").exitCode());
        assertEquals(0, run("job", "submit", "--gpus", "0", "--", "true").exitCode());
        String[][] commands = {
                {"job", "wait", "1"},
                {"job", "wait", "1", "--json"},
                {"job", "logs", "1", "-f"},
                {"queue", "tick"},
                {"queue", "status"},
                {"job", "ls"},
        };
        for (String[] command : commands) {
            Thread.currentThread().interrupt();
            CliRun run = run(command);
            boolean still = Thread.interrupted();
            assertEquals(130, run.exitCode(), String.join(" ", command) + ": " + run.stderr());
            assertTrue(still, String.join(" ", command) + ": the interrupt stays visible to the caller");
            assertTrue(run.stderr().contains("nvidb: interrupted"), run.stderr());
            assertFalse(run.stderr().contains("internal error"), run.stderr());
        }
    }
}
