package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nvidb.store.Lease;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * DESIGN.md §4 invariants 1 and 7: a client process killed with SIGKILL in the middle of a
 * tick, at several points (while it probes a slow node holding the lease, right after it
 * committed placements, while its launch runs on a node, and a {@code job submit} killed
 * during its tick), leaves a consistent {@code queue.db}; the next client takes the lease over
 * once it expires and converges: every job the dead client placed is adopted or launched
 * exactly once (at most one {@code started} event, one attempt directory, one run of the
 * command on the nodes), none is lost or retried.
 */
@org.junit.jupiter.api.Timeout(value = 120, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
class KilledClientTest {

    private static final long SLOW_PROBE_HANG_MS = 100;
    private static QueueCluster cluster;

    @org.junit.jupiter.api.io.TempDir
    Path home;
    private String jobRoot;

    /** Where in the tick the client is killed. */
    enum KillPoint {
        /** {@code queue tick} holds the lease and is still probing the slow node. */
        DURING_PROBE,
        /** {@code queue tick} has committed a placement (a running job without a process yet). */
        AFTER_PLACEMENT,
        /** {@code queue tick}'s launch exec has created an attempt directory on a node. */
        DURING_LAUNCH,
        /** {@code job submit} recorded its job and holds the lease for its tick. */
        SUBMIT_DURING_PROBE
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
        cluster.slow("node-c", 0);
        if (jobRoot != null) {
            cluster.killLeftovers(jobRoot);
        }
    }

    @ParameterizedTest
    @EnumSource(KillPoint.class)
    void nextTickConvergesAfterAClientIsKilledMidTick(KillPoint point) throws Exception {
        jobRoot = "~/.nvidb/jobs-killed-" + point.name().toLowerCase();
        String ranFile = "ran-" + point.name().toLowerCase();
        QueueClient client = cluster.client(home, jobRoot, "lease_seconds: 5");
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String command = "echo \"$NVIDB_JOB_ID\" >> \"$HOME\"/" + ranFile + (i % 2 == 0 ? "; sleep 2" : "");
            ids.add(client.json("job", "submit", "--no-tick", "--json", "--", command).at("/job/id").asLong());
        }
        cluster.slow("node-c", SLOW_PROBE_HANG_MS);

        Process victim = point == KillPoint.SUBMIT_DURING_PROBE
                ? client.spawn("victim", "job", "submit", "-n", "killed-submit", "--",
                        "echo \"$NVIDB_JOB_ID\" >> \"$HOME\"/" + ranFile)
                : client.spawn("victim", "queue", "tick");
        awaitKillPoint(client, victim, point);
        assertTrue(victim.isAlive(), "the client was still in its tick when killed");
        Lease held = client.lease();
        victim.destroyForcibly();
        assertTrue(victim.waitFor(30, TimeUnit.SECONDS));
        assertEquals(137, victim.exitValue(), "killed by SIGKILL");
        assertNotNull(held.holder(), "the client held the tick lease when it was killed");
        assertEquals(held.holder(), client.lease().holder(), "a killed client leaves its lease behind");
        assertEquals("ok", client.integrityCheck());
        if (point == KillPoint.SUBMIT_DURING_PROBE) {
            ids.add(client.jobs().stream().filter(job -> job.get("name").asText().equals("killed-submit"))
                    .findFirst().orElseThrow().get("id").asLong());
        }

        cluster.slow("node-c", 0);
        JsonNode takeover = client.json("queue", "tick", "--json");
        assertTrue(takeover.get("ran").asBoolean(), "the next tick ran once the dead client's lease expired: "
                + takeover);
        assertTrue(client.lease().generation() > held.generation(), "the lease was taken over");
        client.tickUntilEnded(ids, Duration.ofSeconds(40));

        assertEquals("ok", client.integrityCheck());
        Map<Long, JsonNode> jobs = client.jobsById();
        for (long id : ids) {
            JsonNode job = jobs.get(id);
            assertEquals("completed", job.get("state").asText(), job::toString);
            assertEquals(1, job.get("attempt").asInt(), () -> "placed once, never retried: " + job);
        }
        assertEachRanOnce(client, ids, jobs, ranFile);
    }

    private void awaitKillPoint(QueueClient client, Process victim, KillPoint point) {
        BooleanSupplier reached = switch (point) {
            case DURING_PROBE, SUBMIT_DURING_PROBE -> () -> client.lease().held(Instant.now());
            case AFTER_PLACEMENT -> () -> client.count(
                    "SELECT count(*) FROM jobs WHERE state = 'running' AND pid IS NULL") > 0;
            case DURING_LAUNCH -> () -> !cluster.attemptDirs(jobRoot).isEmpty();
        };
        QueueClient.await(point + " in the victim's tick", Duration.ofSeconds(30),
                () -> reached.getAsBoolean() || !victim.isAlive());
        if (!victim.isAlive()) {
            throw new AssertionError("the victim ended (exit " + victim.exitValue() + ") before " + point + ": "
                    + client.spawnedOutput("victim", true));
        }
    }

    /**
     * One {@code started} event and one attempt directory (with its pid file, on the job's node)
     * per job, and each job's command ran exactly once on the nodes.
     */
    private void assertEachRanOnce(QueueClient client, List<Long> ids, Map<Long, JsonNode> jobs, String ranFile)
            throws IOException {
        Map<Long, Map<Integer, Integer>> started = client.startedEvents();
        Map<Long, Integer> runs = new HashMap<>();
        for (String node : QueueCluster.NODES) {
            Path ran = cluster.host(node).home().resolve(ranFile);
            if (Files.exists(ran)) {
                Files.readAllLines(ran).forEach(line -> runs.merge(Long.parseLong(line.trim()), 1, Integer::sum));
            }
        }
        Map<Long, List<QueueCluster.AttemptDir>> dirs = new HashMap<>();
        cluster.attemptDirs(jobRoot).forEach(dir -> dirs.computeIfAbsent(dir.jobId(), id -> new ArrayList<>()).add(dir));
        for (long id : ids) {
            // At most one: a job the dead client launched and that ended before the next probe is
            // settled from its exit file without a started event (see the report on Settler.exited).
            assertTrue(started.get(id) == null || started.get(id).equals(Map.of(1, 1)),
                    "job " + id + ": at most one started event, for attempt 1: " + started.get(id));
            assertEquals(1, runs.getOrDefault(id, 0), "job " + id + " ran once on the nodes: " + runs);
            List<QueueCluster.AttemptDir> attempts = dirs.getOrDefault(id, List.of());
            assertEquals(1, attempts.size(), "job " + id + ": one attempt directory: " + attempts);
            // The pid file may be missing only when the launching agent died right after starting
            // the wrapper and the job ended before the next probe: then its exit file is there.
            assertTrue(attempts.get(0).hasPidFile() || java.nio.file.Files.exists(attempts.get(0).dir().resolve("exit")),
                    "pid or exit file in " + attempts.get(0).dir());
            assertEquals(jobs.get(id).get("node").asText(), attempts.get(0).node());
        }
    }
}
