package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.FakeGpuState.ProcessKind;
import dev.nvidb.testing.HungHost;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue end to end over real SSH servers (MINA on 127.0.0.x) with fake GPUs: placement by
 * budget, the job lifecycle on the nodes, outages, cancels and hung nodes. Jobs are real
 * processes started through the agent, detached with setsid, as on a real node.
 */
class QueueOverSshTest {

    private static final long CARD = 24576;
    private static final Duration LIMIT = Duration.ofSeconds(45);

    private SshHarness harness;
    private TestHost a;
    private TestHost b;
    private TestHost c;

    @TempDir
    Path work;

    @BeforeEach
    void startHosts() {
        harness = new SshHarness();
        a = harness.addHost("gpu-a");
        b = harness.addHost("gpu-b");
        c = harness.addHost("gpu-c");
        for (TestHost host : List.of(a, b, c)) {
            twoCards(host, 0, 0);
        }
    }

    @AfterEach
    void stopHosts() {
        harness.close();
    }

    private static void twoCards(TestHost host, long used0, long used1) {
        FakeGpuState.create().driver("550.54.14")
                .gpu(0, "NVIDIA GeForce RTX 4090", CARD).uuid(0, "GPU-" + host.name() + "-0").used(0, used0)
                .gpu(1, "NVIDIA GeForce RTX 4090", CARD).uuid(1, "GPU-" + host.name() + "-1").used(1, used1)
                .writeTo(host.gpuStateFile());
    }

    private QueueFixtureSsh client(String name, List<String> servers, String settings) throws IOException {
        return new QueueFixtureSsh(harness, Files.createDirectories(work.resolve(name)), servers, settings);
    }

    private QueueFixtureSsh client() throws IOException {
        return client("client", List.of("gpu-a", "gpu-b", "gpu-c"), "");
    }

    @Test
    void placesByBudgetAroundForeignProcesses() throws IOException {
        FakeGpuState.create().gpu(0, "NVIDIA GeForce RTX 4090", CARD).uuid(0, "GPU-a0").used(0, 20000)
                .process(0, ProcessKind.COMPUTE, 424242, 20000)
                .gpu(1, "NVIDIA GeForce RTX 4090", CARD).uuid(1, "GPU-a1").used(1, 0)
                .writeTo(a.gpuStateFile());
        twoCards(b, 23000, 23000);
        twoCards(c, 23000, 23000);
        QueueFixtureSsh client = client();
        long first = client.submit("--vram", "8G", "--", "sleep", "30");
        JsonNode placed = client.job(first);
        assertEquals("running", placed.get("state").asText(), placed.toString());
        assertEquals("gpu-a", placed.get("node").asText());
        assertEquals("[1]", placed.get("gpu_ids").toString(), "the card with foreign work is avoided");

        long second = client.submit("--vram", "20G", "--", "sleep", "30");
        JsonNode waiting = client.job(second);
        assertEquals("pending", waiting.get("state").asText());
        assertTrue(waiting.get("pending_reason").asText().contains("20480"), waiting.toString());

        JsonNode gpu = client.json("queue", "nodes", "--json", "--no-tick").at("/nodes/0/gpus/0");
        assertEquals(20000, gpu.get("external_mem_mb").asLong());
        assertFalse(gpu.at("/processes/0/managed").asBoolean());
    }

    @Test
    void spreadUsesEmptyCardsWhilePackFillsOne() throws IOException {
        QueueFixtureSsh spread = client("spread", List.of("gpu-a"), "placement: spread");
        long one = spread.submit("--vram", "4G", "--", "sleep", "30");
        long two = spread.submit("--vram", "4G", "--", "sleep", "30");
        assertNotEquals(spread.job(one).get("gpu_ids").toString(), spread.job(two).get("gpu_ids").toString());
        spread.run(0, "job", "cancel", String.valueOf(one), String.valueOf(two));

        QueueFixtureSsh pack = client("pack", List.of("gpu-b"), "placement: pack");
        long three = pack.submit("--vram", "4G", "--", "sleep", "30");
        long four = pack.submit("--vram", "4G", "--", "sleep", "30");
        assertEquals(pack.job(three).get("gpu_ids").toString(), pack.job(four).get("gpu_ids").toString());
    }

    @Test
    void jobIsChargedTheLargerOfReservationAndMeasuredUse() throws Exception {
        QueueFixtureSsh client = client("charge", List.of("gpu-a"), "");
        long job = client.submit("--vram", "1G", "--", "echo $$ > \"$NVIDB_JOB_DIR/me\"; exec sleep 60");
        JsonNode running = client.job(job);
        int gpu = running.at("/gpu_ids/0").asInt();
        Path me = client.attemptDir(a, job, 1).resolve("me");
        long pid = awaitPid(me);
        FakeGpuState state = FakeGpuState.create()
                .gpu(0, "NVIDIA GeForce RTX 4090", CARD).uuid(0, "GPU-gpu-a-0")
                .gpu(1, "NVIDIA GeForce RTX 4090", CARD).uuid(1, "GPU-gpu-a-1");
        state.used(gpu, 20000).process(gpu, ProcessKind.COMPUTE, pid, 20000).used(1 - gpu, 0);
        state.writeTo(a.gpuStateFile());
        client.tick();
        JsonNode card = client.json("queue", "nodes", "--json", "--no-tick").at("/nodes/0/gpus/" + gpu);
        assertEquals(20000, card.get("queue_mem_mb").asLong(), card.toString());
        assertEquals(0, card.get("external_mem_mb").asLong(), card.toString());
        assertEquals(1024, card.get("reserved_mb").asLong());
        assertTrue(card.at("/processes/0/managed").asBoolean());
        assertEquals(job, card.at("/processes/0/job_id").asLong());
        assertEquals(CARD - 20000 - 512, card.get("free_mb").asLong(), "charged 20000, not the 1024 reserved");
        long next = client.submit("--vram", "8G", "--", "sleep", "30");
        assertEquals(1 - gpu, client.job(next).at("/gpu_ids/0").asInt(), "the busy card no longer has 8 GiB");
    }

    @Test
    void twoHundredShortJobsAllCompleteAndNoneIsLost() throws IOException {
        QueueFixtureSsh client = client();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            ids.add(client.submit("--no-tick", "--", i % 10 == 0 ? "exit 3" : "true"));
        }
        JsonNode status = client.tickUntilStatus(s -> s.at("/counts/pending").asInt() == 0
                && s.at("/counts/running").asInt() == 0, Duration.ofSeconds(120));
        assertEquals(180, status.at("/counts/completed").asInt(), status.get("counts").toString());
        assertEquals(20, status.at("/counts/failed").asInt());
        assertEquals(0, status.at("/counts/lost").asInt());
        JsonNode failed = client.job(ids.get(10));
        assertEquals(3, failed.get("exit_code").asInt());
    }

    @Test
    void jobOnANodeThatStopsSettlesFromItsExitFileWhenTheNodeReturns() throws IOException {
        QueueFixtureSsh client = client("outage", List.of("gpu-b"), "");
        long job = client.submit("--", "sleep 1; echo finished; exit 0");
        b.stop();
        JsonNode tick = client.tick();
        assertFalse(tick.get("failed").isEmpty(), tick.toString());
        JsonNode unverified = client.job(job);
        assertEquals("running", unverified.get("state").asText());
        assertFalse(unverified.get("unverified_since").isNull(), "shown as unverified while its node is down");
        Path exit = client.attemptDir(b, job, 1).resolve("exit");
        awaitFile(exit);
        b.start();
        JsonNode done = client.tickUntil(job, j -> !QueueFixtureSsh.state(j).equals("running"), LIMIT);
        assertEquals("completed", done.get("state").asText(), done.toString());
        assertEquals(0, done.get("exit_code").asInt());
    }

    @Test
    void runningJobWhoseDirectoryIsRemovedRunsOnAloneAndEndsWithoutASecondCopy() throws Exception {
        QueueFixtureSsh client = client("removed", List.of("gpu-a"), "");
        Path runs = work.resolve("runs");
        long job = client.submit("--retries", "2", "--", "echo run >> '" + runs + "'; exec sleep 300");
        Path attempt = client.attemptDir(a, job, 1);
        awaitFile(attempt.resolve("pid"));
        long pid = client.json("queue", "events", "--json", "--job", String.valueOf(job)).findValues("pid").stream()
                .mapToLong(JsonNode::asLong).findFirst().orElseThrow();

        deleteTree(attempt);
        for (int i = 0; i < 3; i++) {
            client.tick();
        }
        JsonNode running = client.job(job);
        assertEquals("running", running.get("state").asText(), running.toString());
        assertEquals(1, running.get("attempt").asInt());
        assertEquals("run\n", Files.readString(runs), "one copy only");

        new ProcessBuilder("pkill", "-KILL", "-s", String.valueOf(pid)).start().waitFor(); // the wrapper's session
        JsonNode retried = client.tickUntil(job, j -> j.get("attempt").asInt() == 2, LIMIT);
        assertTrue(retried.toString().contains("removed or replaced"), retried.toString());
    }

    @Test
    void jobWhoseWrapperDiesIsNotRetriedWhileItsProcessRuns() throws Exception {
        QueueFixtureSsh client = client("orphan", List.of("gpu-a"), "");
        Path runs = work.resolve("runs");
        long job = client.submit("--retries", "2", "--", "echo run >> '" + runs + "'; sleep 300 & echo $! > "
                + "\"$NVIDB_JOB_DIR/child\"; wait");
        Path attempt = client.attemptDir(a, job, 1);
        awaitFile(attempt.resolve("child"));
        long wrapper = client.json("queue", "events", "--json", "--job", String.valueOf(job)).findValues("pid")
                .stream().mapToLong(JsonNode::asLong).findFirst().orElseThrow();
        long child = Long.parseLong(Files.readString(attempt.resolve("child")).strip());

        ProcessHandle.of(wrapper).ifPresent(ProcessHandle::destroyForcibly);
        awaitGone(wrapper);
        for (int i = 0; i < 3; i++) {
            client.tick();
        }
        assertEquals("running", client.job(job).get("state").asText());
        assertEquals("run\n", Files.readString(runs), "no second copy beside the first");

        client.run(0, "job", "cancel", String.valueOf(job));
        awaitGone(child);
    }

    @Test
    void jobThatEmptiesItsWorkingDirectoryCompletesAfterOneRun() throws Exception {
        QueueFixtureSsh client = client("cleaner", List.of("gpu-a"), "");
        Path runs = work.resolve("runs");
        long job = client.submit("--", "echo run >> '" + runs + "'; touch x; rm -rf ./* ./.[!.]*; sleep 1; echo done");
        JsonNode done = client.tickUntil(job, j -> !QueueFixtureSsh.state(j).equals("running")
                && !QueueFixtureSsh.state(j).equals("pending"), LIMIT);
        assertEquals("completed", done.get("state").asText(), done.toString());
        assertEquals("run\n", Files.readString(runs));
    }

    private static void deleteTree(Path root) throws IOException {
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    @Test
    void jobOnANodeThatStaysDownIsLostAfterTheLimitAndKilledIfTheNodeReturns() throws Exception {
        QueueFixtureSsh client = client("gone", List.of("gpu-b"), "lost_after_seconds: 1");
        long job = client.submit("--", "exec sleep 300");
        awaitFile(client.attemptDir(b, job, 1).resolve("pid"));
        b.stop();
        JsonNode lost = client.tickUntil(job, j -> QueueFixtureSsh.state(j).equals("lost"), LIMIT);
        assertTrue(lost.get("last_error").asText().contains("has not answered since"), lost.toString());
        assertEquals(1, client.json("queue", "status", "--json", "--no-tick").get("pending_reaps").asInt());
        client.run(1, "job", "wait", String.valueOf(job), "--no-tick");
        b.start();
        client.tickUntilStatus(status -> status.get("pending_reaps").asInt() == 0, LIMIT);
    }

    @Test
    void jobCancelledDuringAnOutageIsKilledWhenTheNodeReturns() throws Exception {
        QueueFixtureSsh client = client("reap", List.of("gpu-c"), "kill_grace_seconds: 1");
        long job = client.submit("--", "exec sleep 300");
        Path pidFile = client.attemptDir(c, job, 1).resolve("pid");
        awaitFile(pidFile);
        long pid = client.json("queue", "events", "--json", "--job", String.valueOf(job)).findValues("pid").stream()
                .mapToLong(JsonNode::asLong).findFirst().orElseThrow();
        c.stop();
        // Nobody can tell whether it ended meanwhile: the cancel is owed, the job stays running.
        client.run(0, "job", "cancel", String.valueOf(job));
        assertEquals("running", client.job(job).get("state").asText());
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "still running during the outage");
        c.start();
        client.tickUntil(job, j -> QueueFixtureSsh.state(j).equals("cancelled"), LIMIT);
        client.tickUntilStatus(status -> status.get("pending_reaps").asInt() == 0, LIMIT);
        awaitGone(pid);
    }

    @Test
    void hungNodeDoesNotStopPlacementsElsewhereAndIsBackedOff() throws IOException {
        HungHost hung = harness.hungHost("gpu-hung");
        QueueFixtureSsh client = client("hung", List.of("gpu-hung", "gpu-a"), "");
        long job = client.submit("--", "sleep 30");
        assertEquals("gpu-a", client.job(job).get("node").asText());
        JsonNode second = client.tick();
        assertTrue(second.get("skipped").toString().contains("gpu-hung"), "backing off: " + second);
        assertTrue(second.get("answered").toString().contains("gpu-a"), second.toString());
        assertTrue(hung.connectionsAccepted() >= 1);
    }

    @Test
    void commandsEnvironmentAndWorkdirReachTheJobExactly() throws Exception {
        QueueFixtureSsh client = client("quoting", List.of("gpu-a"), "");
        Files.createDirectories(a.home().resolve("proj dir"));
        String nasty = "it's \"$(touch /tmp/nvidb-pwned)\" `id` ; echo x\nline2 ünï 🚀";
        long job = client.submit("-n", "name 'quoted' $(x)", "--env", "NASTY=" + nasty, "--workdir", "~/proj dir",
                "--gpus", "0", "--", "printf '%s|%s|%s|%s' \"$NASTY\" \"$PWD\" \"$NVIDB_JOB_NAME\" \"$CUDA_VISIBLE_DEVICES\"");
        client.tickUntil(job, j -> QueueFixtureSsh.state(j).equals("completed"), LIMIT);
        String out = client.run(0, "job", "logs", String.valueOf(job), "--no-tick").stdout();
        assertEquals(nasty + "|" + a.home().resolve("proj dir") + "|name 'quoted' $(x)|", out);
        assertFalse(Files.exists(Path.of("/tmp/nvidb-pwned")), "nothing ran outside the user's command");
    }

    private static long awaitPid(Path file) throws IOException {
        awaitFile(file);
        while (Files.readString(file).isBlank()) {
            QueueFixtureSsh.pause();
        }
        return Long.parseLong(Files.readString(file).strip());
    }

    private static void awaitFile(Path file) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(file + " did not appear");
            }
            QueueFixtureSsh.pause();
        }
    }

    private static void awaitGone(long pid) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("process " + pid + " is still running");
            }
            QueueFixtureSsh.pause();
        }
    }
}
