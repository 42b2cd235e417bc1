package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN.md §4 invariants 1, 2 and 6 under load: sixteen clients (threads running the CLI
 * in-process, each run with its own database connection and SSH pool, and real JVM processes)
 * submit short jobs and cancel some of them while others tick. No command fails or reports a
 * busy database, every submitted job exists exactly once and ends as expected, no attempt is
 * launched twice (events and attempt directories on the nodes), nothing is left running, and a
 * burst of concurrent {@code job ls} makes one round of SSH traffic, not one per client.
 */
@org.junit.jupiter.api.Timeout(value = 120, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
class ConcurrentClientsTest {

    private static final String JOB_ROOT = "~/.nvidb/jobs-concurrent";
    private static final int THREADS = 13;
    private static final int PROCESSES = 3;
    private static final int ROUNDS = 2;
    private static final Pattern TROUBLE = Pattern.compile("(?i)locked|busy|exception|internal error");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static QueueCluster cluster;

    @TempDir
    Path home;

    /** What a client did to a job, and so how the job must end. */
    private record Expectation(String command, String finalState) {
    }

    @BeforeAll
    static void startCluster() {
        cluster = new QueueCluster();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @AfterEach
    void killLeftovers() {
        cluster.killLeftovers(JOB_ROOT);
    }

    @Test
    void sixteenClientsSubmittingAndCancellingDuringTicksLoseAndDuplicateNothing() throws Exception {
        QueueClient client = cluster.client(home, JOB_ROOT);
        Map<Long, Expectation> submitted = new ConcurrentHashMap<>();
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(THREADS + PROCESSES);
        try {
            CyclicBarrier start = new CyclicBarrier(THREADS + PROCESSES);
            List<Future<?>> clients = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                int index = i;
                clients.add(pool.submit(() -> {
                    start.await();
                    for (int round = 0; round < ROUNDS; round++) {
                        threadClient(client, index, submitted, problems);
                    }
                    return null;
                }));
            }
            for (int i = 0; i < PROCESSES; i++) {
                int index = i;
                clients.add(pool.submit(() -> {
                    start.await();
                    processClient(client, index, submitted, problems);
                    return null;
                }));
            }
            for (Future<?> each : clients) {
                each.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(problems.isEmpty(), () -> "commands failed:\n" + String.join("\n", problems));
        assertEquals(THREADS * ROUNDS + PROCESSES, submitted.size(), "every submit returned a new id");

        client.tickUntilEnded(submitted.keySet(), Duration.ofSeconds(60));
        Map<Long, JsonNode> jobs = client.jobsById();
        assertEquals(submitted.keySet(), jobs.keySet(), "the queue holds exactly the submitted jobs");
        for (Map.Entry<Long, Expectation> entry : submitted.entrySet()) {
            JsonNode job = jobs.get(entry.getKey());
            assertEquals(entry.getValue().finalState(), job.get("state").asText(),
                    () -> "job " + entry.getKey() + " (" + entry.getValue().command() + "): " + job);
            assertEquals(entry.getValue().command(), job.get("command").asText());
        }
        assertLaunchedAtMostOnce(client, jobs);
        assertNothingLeftRunning(client);
    }

    /** One round of an in-process client: submit, then cancel, tick or list depending on its role. */
    private static void threadClient(QueueClient client, int index, Map<Long, Expectation> submitted,
                                     List<String> problems) throws IOException {
        switch (index % 4) {
            case 0 -> {
                long id = submit(client, submitted, problems, "sleep 30", "cancelled");
                cancel(client, id, submitted, problems);
            }
            case 1 -> {
                submit(client, submitted, problems, "true", "completed");
                check(problems, "queue tick", client.run("queue", "tick"));
            }
            case 2 -> {
                submit(client, submitted, problems, "exit 3", "failed");
                check(problems, "job ls", client.run("job", "ls", "--json"));
            }
            default -> {
                long id = submit(client, submitted, problems, "sleep 0.2", "completed");
                cancel(client, id, submitted, problems);
            }
        }
    }

    private static long submit(QueueClient client, Map<Long, Expectation> submitted, List<String> problems,
                               String command, String finalState) throws IOException {
        CliRunner.Result result = client.run("job", "submit", "--json", "--", command);
        check(problems, "job submit " + command, result);
        long id = JSON.readTree(result.stdout()).at("/job/id").asLong();
        record(submitted, problems, id, new Expectation(command, finalState));
        return id;
    }

    private static void record(Map<Long, Expectation> submitted, List<String> problems, long id, Expectation expected) {
        if (submitted.putIfAbsent(id, expected) != null) {
            problems.add("job id " + id + " was returned by two submits");
        }
    }

    /** Cancels; exit 1 is documented only for a job that ended first, which must then end as it would have. */
    private static void cancel(QueueClient client, long id, Map<Long, Expectation> submitted, List<String> problems) {
        CliRunner.Result result = client.run("job", "cancel", Long.toString(id));
        if (result.exitCode() == 0) {
            submitted.computeIfPresent(id, (key, expected) -> new Expectation(expected.command(), "cancelled"));
            checkStderr(problems, "job cancel", result.stderr());
        } else if (result.exitCode() != 1 || !result.stderr().contains(submitted.get(id).finalState())) {
            problems.add("job cancel " + id + " exited " + result.exitCode() + ": " + result.stderr());
        }
    }

    /** A real client process: submit a short job, cancel it, tick. */
    private static void processClient(QueueClient client, int index, Map<Long, Expectation> submitted,
                                      List<String> problems) throws Exception {
        String label = "process-" + index;
        Process submit = client.spawn(label + "-submit", "job", "submit", "--json", "--", "sleep 0.2");
        if (!finished(problems, label + " submit", submit, client, label + "-submit")) {
            return;
        }
        long id = JSON.readTree(client.spawnedOutput(label + "-submit", false)).at("/job/id").asLong();
        record(submitted, problems, id, new Expectation("sleep 0.2", "completed"));
        Process cancel = client.spawn(label + "-cancel", "job", "cancel", Long.toString(id));
        int code = cancel.waitFor(90, TimeUnit.SECONDS) ? cancel.exitValue() : -1;
        String stderr = client.spawnedOutput(label + "-cancel", true);
        if (code == 0) {
            submitted.computeIfPresent(id, (key, expected) -> new Expectation(expected.command(), "cancelled"));
            checkStderr(problems, label + " cancel", stderr);
        } else if (code != 1 || !stderr.contains("completed")) {
            problems.add(label + " job cancel " + id + " exited " + code + ": " + stderr);
        }
        finished(problems, label + " tick", client.spawn(label + "-tick", "queue", "tick"), client, label + "-tick");
    }

    private static boolean finished(List<String> problems, String what, Process process, QueueClient client,
                                    String label) throws InterruptedException {
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            problems.add(what + " did not finish");
            return false;
        }
        String stderr = client.spawnedOutput(label, true);
        if (process.exitValue() != 0) {
            problems.add(what + " exited " + process.exitValue() + ": " + stderr);
            return false;
        }
        checkStderr(problems, what, stderr);
        return true;
    }

    private static void check(List<String> problems, String what, CliRunner.Result result) {
        if (result.exitCode() != 0) {
            problems.add(what + " exited " + result.exitCode() + ": " + result.stderr());
        }
        checkStderr(problems, what, result.stderr());
    }

    private static void checkStderr(List<String> problems, String what, String stderr) {
        if (TROUBLE.matcher(stderr).find()) {
            problems.add(what + " complained: " + stderr);
        }
    }

    /**
     * At most one {@code started} event per job and attempt; on the nodes, at most one attempt
     * directory per job and attempt, each with its pid file, on the node the job was placed on.
     */
    private static void assertLaunchedAtMostOnce(QueueClient client, Map<Long, JsonNode> jobs) {
        client.startedEvents().forEach((id, attempts) -> attempts.forEach((attempt, count) ->
                assertEquals(1, count, "job " + id + " attempt " + attempt + " has " + count + " started events")));
        Map<String, List<String>> dirsByAttempt = new HashMap<>();
        for (QueueCluster.AttemptDir dir : cluster.attemptDirs(JOB_ROOT)) {
            dirsByAttempt.computeIfAbsent(dir.jobId() + "/" + dir.attempt(), key -> new ArrayList<>()).add(dir.node());
            assertTrue(dir.hasPidFile(), "no pid file in " + dir.dir());
            JsonNode job = jobs.get(dir.jobId());
            assertFalse(job == null, "an attempt directory for unknown job " + dir.jobId());
            assertEquals(1, dir.attempt(), "job " + dir.jobId() + " was never retried or requeued");
            assertEquals(job.get("node").asText(), dir.node(), "job " + dir.jobId() + " ran where it was placed");
        }
        dirsByAttempt.forEach((attempt, nodes) ->
                assertEquals(1, nodes.size(), "attempt " + attempt + " was launched on " + nodes));
        for (JsonNode job : jobs.values()) {
            boolean started = client.startedEvents().containsKey(job.get("id").asLong());
            if (started) {
                assertTrue(dirsByAttempt.containsKey(job.get("id").asLong() + "/1"), "job started but left no directory: "
                        + job);
            }
        }
    }

    /**
     * Every kill owed was delivered, no job's wrapper is still alive, and every attempt's
     * wrapper recorded an exit status (the agent protocol's promise, also for a cancelled job).
     */
    private static void assertNothingLeftRunning(QueueClient client) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (true) {
            client.run("queue", "tick");
            List<QueueCluster.AttemptDir> running = cluster.attemptDirs(JOB_ROOT).stream()
                    .filter(dir -> ProcessHandle.of(dir.wrapperPid()).map(ProcessHandle::isAlive).orElse(false))
                    .toList();
            long owed = client.count("SELECT count(*) FROM pending_reaps");
            if (running.isEmpty() && owed == 0) {
                break;
            }
            if (Instant.now().isAfter(deadline)) {
                fail("still running on the nodes: " + running + "\nkills owed:\n"
                        + client.rows("SELECT * FROM pending_reaps") + describe(client, running));
            }
        }
        List<QueueCluster.AttemptDir> silent = cluster.attemptDirs(JOB_ROOT).stream()
                .filter(dir -> !dir.hasExitFile()).toList();
        assertTrue(silent.isEmpty(), () -> "wrappers ended without recording an exit status: " + silent
                + describe(client, silent));
    }

    private static String describe(QueueClient client, List<QueueCluster.AttemptDir> dirs) {
        String ids = String.join(",", dirs.stream().map(dir -> Long.toString(dir.jobId())).toList());
        StringBuilder text = new StringBuilder("\nfiles there:\n");
        for (QueueCluster.AttemptDir dir : dirs) {
            try (var files = java.nio.file.Files.list(dir.dir())) {
                text.append(dir.jobId()).append(": ").append(files.map(file -> file.getFileName().toString()).sorted()
                        .toList()).append('\n');
            } catch (IOException e) {
                text.append(dir.jobId()).append(": ").append(e).append('\n');
            }
        }
        return text + "jobs:\n" + client.rows("SELECT id, state, attempt, node, pid, last_error FROM jobs WHERE id IN ("
                + ids + ")") + "events:\n" + client.rows("SELECT * FROM events WHERE job_id IN (" + ids + ")");
    }

    @Test
    void burstOfConcurrentListingsMakesOneRoundOfSshTraffic() throws Exception {
        QueueClient client = cluster.client(home, JOB_ROOT);
        client.json("queue", "tick", "--json");
        int clients = 16;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            for (int burst = 0; burst < 3; burst++) {
                Map<String, Integer> before = cluster.sessions();
                CyclicBarrier start = new CyclicBarrier(clients);
                List<Future<CliRunner.Result>> listings = new ArrayList<>();
                for (int i = 0; i < clients; i++) {
                    listings.add(pool.submit(() -> {
                        start.await();
                        return client.run("job", "ls", "--json");
                    }));
                }
                for (Future<CliRunner.Result> listing : listings) {
                    CliRunner.Result result = listing.get(60, TimeUnit.SECONDS);
                    assertEquals(0, result.exitCode(), result.stderr());
                    assertFalse(TROUBLE.matcher(result.stderr()).find(), result.stderr());
                }
                Map<String, Integer> after = cluster.sessions();
                for (String node : QueueCluster.NODES) {
                    int opened = after.get(node) - before.get(node);
                    if (opened != 1) {
                        fail("burst " + burst + ": " + clients + " concurrent 'job ls' opened " + opened
                                + " SSH connections to " + node + " (want one tick's worth: 1); all nodes: "
                                + before + " -> " + after);
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
