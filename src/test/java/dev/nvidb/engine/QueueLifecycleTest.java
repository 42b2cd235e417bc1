package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nvidb.cli.CliRunner;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job lifecycle over one SSH host with fake GPUs: timeouts, retries of a vanished
 * process, dependency chains, requeue, results, progress, and following logs by offset.
 */
class QueueLifecycleTest {

    private static final Duration LIMIT = Duration.ofSeconds(45);
    private static SshHarness harness;
    private static TestHost node;

    @TempDir
    Path work;

    @BeforeAll
    static void startHost() {
        harness = new SshHarness();
        node = harness.addHost("gpu-l");
        FakeGpuState.create().gpu(0, "NVIDIA A100-SXM4-80GB", 81920).uuid(0, "GPU-l0").used(0, 0)
                .writeTo(node.gpuStateFile());
    }

    @AfterAll
    static void stopHost() {
        harness.close();
    }

    private QueueFixtureSsh client() {
        return new QueueFixtureSsh(harness, work, List.of("gpu-l"), "kill_grace_seconds: 1");
    }

    private static boolean ended(JsonNode job) {
        return !List.of("pending", "running").contains(QueueFixtureSsh.state(job));
    }

    @Test
    void overrunningJobIsKilledAndMarkedTimeout() throws Exception {
        QueueFixtureSsh client = client();
        long job = client.submit("--timeout", "1", "--", "exec sleep 300");
        long pid = wrapperPid(client, job, 1);
        JsonNode done = client.tickUntil(job, QueueLifecycleTest::ended, LIMIT);
        assertEquals("timeout", done.get("state").asText());
        client.tickUntilStatus(status -> status.get("pending_reaps").asInt() == 0, LIMIT);
        awaitGone(pid);
        JsonNode alert = client.json("queue", "status", "--json", "--no-tick").get("alerts");
        assertTrue(alert.toString().contains("job_timeout"), alert.toString());
    }

    @Test
    void vanishedProcessIsRetriedThenLostWhenRetriesRunOut() throws Exception {
        QueueFixtureSsh client = client();
        long job = client.submit("--retries", "1", "--", "exec sleep 300");
        killSession(wrapperPid(client, job, 1)); // the wrapper alone is not the job: its session runs on
        JsonNode second = client.tickUntil(job, j -> j.get("attempt").asInt() == 2
                && QueueFixtureSsh.state(j).equals("running"), LIMIT);
        assertEquals(1, second.get("max_retries").asInt());
        killSession(wrapperPid(client, job, 2));
        JsonNode lost = client.tickUntil(job, QueueLifecycleTest::ended, LIMIT);
        assertEquals("lost", lost.get("state").asText(), lost.toString());
        String alerts = client.json("queue", "status", "--json", "--no-tick").get("alerts").toString();
        assertTrue(alerts.contains("job_retried") && alerts.contains("job_lost"), alerts);
    }

    /** SIGKILL to every process of the session a wrapper leads: the wrapper and its job. */
    private static void killSession(long wrapper) throws Exception {
        new ProcessBuilder("pkill", "-KILL", "-s", String.valueOf(wrapper)).start().waitFor();
    }

    @Test
    void afterWaitsForSuccessAndFailsWithItsDependencyWhileAfterAnyRuns() throws IOException {
        QueueFixtureSsh client = client();
        long first = client.submit("--", "sleep 5; exit 2");  // outlives the next two submits on a loaded machine
        long needsSuccess = client.submit("--after", String.valueOf(first), "--", "echo never");
        long anyEnd = client.submit("--after-any", String.valueOf(first), "--", "echo ran");
        JsonNode waiting = client.job(needsSuccess);
        assertEquals("pending", waiting.get("state").asText());
        assertTrue(waiting.get("pending_reason").asText().contains(String.valueOf(first)), waiting.toString());
        assertEquals("failed", client.tickUntil(needsSuccess, QueueLifecycleTest::ended, LIMIT).get("state").asText());
        assertEquals("completed", client.tickUntil(anyEnd, QueueLifecycleTest::ended, LIMIT).get("state").asText());
        client.run(2, "job", "submit", "--after", "99999", "--", "true");
    }

    @Test
    void requeueRunsAgainKeepingTheNoteAndResultsAndProgressAreCollected() throws Exception {
        QueueFixtureSsh client = client();
        long job = client.submit("--note", "baseline", "--", "echo 'epoch 2/2' > \"$NVIDB_STATUS_FILE\"; "
                + "echo '{\"loss\": 0.25}' > \"$NVIDB_JOB_DIR/result.json\"");
        JsonNode done = client.tickUntil(job, QueueLifecycleTest::ended, LIMIT);
        assertEquals("completed", done.get("state").asText());
        assertEquals("epoch 2/2", done.get("progress").asText());
        assertEquals(0.25, done.at("/result/loss").asDouble());
        assertEquals(0.25, client.json("job", "result", String.valueOf(job), "--json", "--no-tick").at("/result/loss")
                .asDouble());
        client.run(0, "job", "requeue", String.valueOf(job));
        JsonNode again = client.tickUntil(job, j -> j.get("attempt").asInt() == 2 && ended(j), LIMIT);
        assertEquals("completed", again.get("state").asText());
        assertEquals("baseline", again.get("notes").asText());
        client.run(0, "job", "note", String.valueOf(job), "--append", "second run fine");
        assertEquals("baseline\nsecond run fine", client.job(job).get("notes").asText());
    }

    @Test
    void resultThatIsNotJsonIsNotCollectedAndTheJobSaysWhy() {
        QueueFixtureSsh client = client();
        long job = client.submit("--", "echo 'not {json' > \"$NVIDB_JOB_DIR/result.json\"");
        JsonNode done = client.tickUntil(job, QueueLifecycleTest::ended, LIMIT);
        assertEquals("completed", done.get("state").asText());
        assertTrue(done.get("result").isNull(), done.toString());
        assertTrue(done.get("last_error").asText().startsWith("result.json not collected"), done.toString());
    }

    @Test
    void followingLogsPrintsEveryLineOnceAndStopsWhenTheJobEnds() throws IOException {
        QueueFixtureSsh client = client();
        long job = client.submit("--", "for i in $(seq 1 40); do echo line $i; sleep 0.05; done");
        CliRunner.Result followed = client.run(0, "job", "logs", String.valueOf(job), "-f", "--interval", "0.2");
        String expected = IntStream.rangeClosed(1, 40).mapToObj(i -> "line " + i + "\n").collect(Collectors.joining());
        assertEquals(expected, followed.stdout());
    }

    /** The pid of an attempt's wrapper, from the pid file the agent writes at launch. */
    private static long wrapperPid(QueueFixtureSsh client, long job, int attempt) throws IOException {
        Path file = client.attemptDir(node, job, attempt).resolve("pid");
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!Files.exists(file) || Files.readString(file).isBlank()) {
            assertTrue(System.nanoTime() < deadline, file + " did not appear");
            QueueFixtureSsh.pause();
        }
        String text = Files.readString(file);
        java.util.regex.Matcher pid = java.util.regex.Pattern.compile("\"pid\"\\s*:\\s*(\\d+)").matcher(text);
        assertTrue(pid.find(), text);
        return Long.parseLong(pid.group(1));
    }

    private static void awaitGone(long pid) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            assertTrue(System.nanoTime() < deadline, "process " + pid + " is still running");
            QueueFixtureSsh.pause();
        }
    }
}
