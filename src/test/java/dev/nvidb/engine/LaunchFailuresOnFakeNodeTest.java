package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.model.JobStatus;
import dev.nvidb.store.AlertStore;
import dev.nvidb.store.JobAnnotations;
import dev.nvidb.store.JobStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tick's handling of launches that fail for sure, on an in-process fake node: back to
 * pending, held at the second failure in a row (the count is a column, {@code last_error} is
 * only text for people), released and counted afresh by the person's requeue.
 */
class LaunchFailuresOnFakeNodeTest {

    private static final String DISK_FULL = "/home/u/.nvidb/jobs/q1/1/1: No space left on device";

    @TempDir
    Path dir;

    @Test
    void theSecondFailedLaunchInARowHoldsTheJobAndARequeueReleasesIt() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            cluster.node("node-a").failLaunches(DISK_FULL);
            long id = cluster.submit("train");

            cluster.tick();
            Job once = cluster.job(id);
            assertEquals(JobStatus.PENDING, once.status(), "back to pending, not held, after one failure");
            assertEquals("launch failed on node-a: " + DISK_FULL, once.lastError());
            assertEquals(1, launchFailures(cluster, id));

            cluster.tick();
            Job twice = cluster.job(id);
            assertTrue(twice.held(), twice.toString());
            assertTrue(twice.holdReason().startsWith("its launch failed twice (launch failed on node-a: "));
            assertEquals(2, twice.attempt());
            assertEquals(List.of("launch_failed", "launch_failed"), alertKinds(cluster));

            cluster.tick();
            assertEquals(2, cluster.job(id).attempt(), "a held job is not placed again");

            cluster.node("node-a").failLaunches(null);
            assertTrue(new JobAnnotations(cluster.database).release(id, cluster.clock.instant()),
                    "what 'job requeue' does to a held job");
            assertEquals(0, launchFailures(cluster, id));
            cluster.tick();
            Job running = cluster.job(id);
            assertEquals(JobState.RUNNING, running.state());
            assertEquals(3, running.attempt());
            assertEquals(1, cluster.node("node-a").running(id));
        }
    }

    @Test
    void aFailedLaunchAfterARetryIsTheFirstOfANewRun() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long id = cluster.submit("train", 1, 1000, null, 3);
            cluster.node("node-a").failLaunches(DISK_FULL);
            cluster.tick();
            assertEquals(1, launchFailures(cluster, id));

            cluster.node("node-a").failLaunches(null);
            cluster.tick();
            assertEquals(JobState.RUNNING, cluster.job(id).state());
            cluster.node("node-a").vanish(id);
            cluster.node("node-a").failLaunches(DISK_FULL);
            cluster.tick();
            Job job = cluster.job(id);
            assertEquals(3, job.attempt(), "retried, placed again, and that launch failed: " + job);
            assertFalse(job.held(), "the retry started the count again, so this is its first failure: " + job);
            assertEquals(1, launchFailures(cluster, id));
        }
    }

    private static int launchFailures(FakeCluster cluster, long id) {
        return new JobStore(cluster.database).getJob(id).launchFailures();
    }

    private static List<String> alertKinds(FakeCluster cluster) {
        return new AlertStore(cluster.database).listOpen().stream().map(alert -> alert.kind())
                .filter(kind -> !kind.equals("node_down")).toList();
    }
}
