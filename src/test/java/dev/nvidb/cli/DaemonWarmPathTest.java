package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm path end to end: a real {@code queue daemon} process that passes only when asked
 * (its interval is an hour), and commands run as a user would run them. Every job here can only
 * start, end or be cancelled because a command reached the daemon through its socket.
 */
class DaemonWarmPathTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path home;

    private Map<String, String> env;
    private Process daemon;

    @BeforeEach
    void startDaemon() throws Exception {
        env = new HashMap<>(CliRun.localQueue(home));
        // A submit that failed to wake the daemon would start this "ticker", which places nothing.
        env.put(SubmitTicker.LAUNCHER, "/bin/true");
        daemon = ClientProcess.daemon(home, env);
    }

    @AfterEach
    void stopDaemon() throws Exception {
        daemon.destroyForcibly().waitFor();
        SubmitExitCodeTest.awaitDetachedJobsUnder(home);
    }

    @Test
    void aSubmittedJobStartsThroughTheDaemonAndACancelStopsIt() throws Exception {
        CliRun submit = CliRun.run(env, "job", "submit", "--json", "--gpus", "0", "--", "sleep", "120");
        assertEquals(0, submit.exitCode(), submit.stderr());
        long id = JSON.readTree(submit.stdout()).path("job").path("id").asLong();

        JsonNode running = awaitJob(id, job -> job.path("state").asText().equals("running"));
        assertEquals("here", running.path("node").asText());

        CliRun cancel = CliRun.run(env, "job", "cancel", String.valueOf(id));
        assertEquals(0, cancel.exitCode(), cancel.stdout() + cancel.stderr());
        assertTrue((cancel.stdout() + cancel.stderr()).contains("cancelled job " + id), cancel.stdout() + cancel.stderr());
        assertEquals("cancelled", job(id).path("state").asText());
        SubmitExitCodeTest.awaitDetachedJobsUnder(home);
        assertTrue(!SubmitExitCodeTest.workingUnder(home.toRealPath().toString()), "the job's processes are gone");
    }

    @Test
    void submitWaitGetsItsExitCodeFromTheDaemonsPasses() throws Exception {
        CliRun ok = CliRun.run(env, "job", "submit", "--wait", "--gpus", "0", "--", "true");
        assertEquals(0, ok.exitCode(), ok.stdout() + ok.stderr() + evidence());
        CliRun failed = CliRun.run(env, "job", "submit", "--wait", "--gpus", "0", "--", "sh", "-c", "exit 3");
        assertEquals(1, failed.exitCode(), failed.stdout() + failed.stderr() + evidence());
        CliRun alerts = CliRun.run(env, "queue", "alerts", "--no-tick");
        assertEquals(1, alerts.exitCode(), "a failed job leaves an open alert: " + alerts.stdout());
    }

    @Test
    void aCommandTickingForItselfFindsTheJobTheDaemonStarted() throws Exception {
        CliRun submit = CliRun.run(env, "job", "submit", "--json", "--gpus", "0", "--", "sleep", "2");
        assertEquals(0, submit.exitCode(), submit.stderr());
        long id = JSON.readTree(submit.stdout()).path("job").path("id").asLong();
        awaitJob(id, job -> job.path("state").asText().equals("running"));
        daemon.destroyForcibly().waitFor();
        // This test's process has another HOME than the daemon had; the command's own is what counts.
        Map<String, String> alone = new HashMap<>(env);
        alone.put(SubmitTicker.MODE, "inline");
        CliRun waited = CliRun.run(alone, "job", "wait", String.valueOf(id));
        assertEquals(0, waited.exitCode(), waited.stdout() + waited.stderr() + evidence());
        assertEquals("completed", job(id).path("state").asText());
    }

    @Test
    void anEditedQueueYmlIsReadAgainAndABrokenOneIsReportedAndIgnored() throws Exception {
        Path queueYml = home.resolve(".nvidb/queue.yml");
        Files.writeString(queueYml, "queue:\n  local_node_name: there\n");
        // The daemon looks after each pass: one pass sees the edit, the next runs on it.
        awaitDaemonLog(log -> log.contains("queue.yml changed; reading the configuration again"), "the reload");
        awaitDaemonLog(log -> log.lines().anyMatch(line -> line.contains("\"answered\":[\"there\"]")),
                "a pass over the renamed node");

        Files.writeString(queueYml, "queue:\n  local_node_name: [unclosed\n");
        awaitDaemonLog(log -> log.contains("queue.yml changed but cannot be used"), "the broken edit reported");
        assertTrue(daemon.isAlive(), "the daemon keeps running on what it has");
        CliRun status = CliRun.run(env, "queue", "status", "--json", "--no-tick");
        assertTrue(Files.exists(home.resolve(".nvidb/queue.db.daemon")), "and keeps serving");
        assertEquals(2, status.exitCode(), "this command reads the broken file itself: " + status.stderr());
    }

    /** Asks the daemon for a pass over its socket, as a submit does. */
    private void wake() throws Exception {
        try (java.nio.channels.SocketChannel channel = java.nio.channels.SocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            channel.connect(java.net.UnixDomainSocketAddress.of(home.resolve(".nvidb/queue.db.daemon")));
            channel.write(java.nio.ByteBuffer.wrap("wake\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
            channel.read(java.nio.ByteBuffer.allocate(16));
        } catch (java.io.IOException e) {
            // between two configurations the socket is gone for a moment: the next round wakes it
        }
    }

    /** Wakes the daemon (a pass at once) until its log satisfies {@code condition}. */
    private void awaitDaemonLog(Predicate<String> condition, String what) throws Exception {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.test(Files.readString(home.resolve("daemon.log")))) {
            assertTrue(System.nanoTime() < deadline, "never saw " + what + ":\n" + Files.readString(home.resolve("daemon.log")));
            wake(); // (a command would read the configuration first, and a broken one stops it there)
            Thread.sleep(100); // a poll with a deadline
        }
    }

    @Test
    void aKilledDaemonLeavesCommandsWorkingWithoutIt() throws Exception {
        daemon.destroyForcibly().waitFor();
        assertTrue(Files.exists(home.resolve(".nvidb/queue.db.daemon")), "a killed daemon leaves its socket");
        Map<String, String> alone = new HashMap<>(env);
        alone.put(SubmitTicker.MODE, "inline");
        CliRun submit = CliRun.run(alone, "job", "submit", "--wait", "--gpus", "0", "--", "true");
        assertEquals(0, submit.exitCode(), submit.stdout() + submit.stderr());
    }

    /** What the daemon printed and the queue's events, for a failure's message. */
    private String evidence() throws Exception {
        return "\n--- daemon:\n" + Files.readString(home.resolve("daemon.log")) + "--- events:\n"
                + CliRun.run(env, "queue", "events", "--no-tick").stdout();
    }

    private JsonNode job(long id) throws Exception {
        CliRun show = CliRun.run(env, "job", "show", String.valueOf(id), "--json", "--no-tick");
        assertEquals(0, show.exitCode(), show.stderr());
        return JSON.readTree(show.stdout()).path("job");
    }

    private JsonNode awaitJob(long id, Predicate<JsonNode> condition) throws Exception {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (true) {
            JsonNode job = job(id);
            if (condition.test(job)) {
                return job;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job " + id + " never got there: " + job + "\n"
                        + Files.readString(home.resolve("daemon.log")));
            }
            Thread.sleep(50); // a poll with a deadline
        }
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(50); // a poll with a deadline
        }
    }
}
