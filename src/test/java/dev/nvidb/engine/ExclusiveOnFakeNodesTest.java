package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.nvidb.model.JobState;
import dev.nvidb.model.RunPolicy;
import dev.nvidb.testing.FakeNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --exclusive} through the real tick on the in-process fake node: such a job starts only on
 * a GPU with no process at all, and while it runs no other job is placed on its GPU.
 */
class ExclusiveOnFakeNodesTest {

    private static final RunPolicy EXCLUSIVE = new RunPolicy(true, 0);

    @TempDir
    Path dir;

    @Test
    void anExclusiveJobTakesAnEmptyGpuAndKeepsEveryOtherJobOffIt() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            FakeNode node = cluster.node("node-a");
            long shared = cluster.submit("shared", 1, 1_000, RunPolicy.DEFAULT);
            cluster.tick();
            int sharedGpu = cluster.job(shared).assignment().gpuIds().get(0);
            node.uses(shared, sharedGpu, 900);

            long exclusive = cluster.submit("alone", 1, 1_000, EXCLUSIVE);
            cluster.tick();
            assertEquals(JobState.RUNNING, cluster.job(exclusive).state());
            int exclusiveGpu = cluster.job(exclusive).assignment().gpuIds().get(0);
            assertNotEquals(sharedGpu, exclusiveGpu, "only the GPU with nothing on it");
            node.uses(exclusive, exclusiveGpu, 500);

            // Spread would pick the emptier exclusive GPU; it is held, so both go beside the shared job.
            long small = cluster.submit("small", 1, 1_000, RunPolicy.DEFAULT);
            cluster.tick();
            assertEquals(sharedGpu, cluster.job(small).assignment().gpuIds().get(0));
            long big = cluster.submit("big", 1, 80_000, RunPolicy.DEFAULT);
            long second = cluster.submit("second", 1, 1_000, EXCLUSIVE);
            cluster.tick();
            assertEquals(JobState.PENDING, cluster.job(big).state());
            assertEquals("GPU " + exclusiveGpu + " of node-a is held exclusively by job " + exclusive,
                    reason(cluster, big));
            assertEquals(JobState.PENDING, cluster.job(second).state());
            assertEquals("waiting for a GPU with no process at all (--exclusive; 2 of 2 GPUs that could hold it"
                    + " are in use)", reason(cluster, second));

            node.exit(exclusive, 0, null);
            cluster.tick();
            assertEquals(JobState.COMPLETED, cluster.job(exclusive).state());
            assertEquals(JobState.RUNNING, cluster.job(big).state(), "the GPU is open again once it ended");
            assertEquals(exclusiveGpu, cluster.job(big).assignment().gpuIds().get(0));
        }
    }

    @Test
    void aProcessTheQueueDidNotStartKeepsAnExclusiveJobWaiting() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            cluster.node("node-a").foreignProcess(0, 200).foreignProcess(1, 300);
            long exclusive = cluster.submit("alone", 1, 1_000, EXCLUSIVE);
            long plain = cluster.submit("plain", 1, 1_000, RunPolicy.DEFAULT);
            cluster.tick();
            assertEquals(JobState.PENDING, cluster.job(exclusive).state());
            assertEquals(JobState.RUNNING, cluster.job(plain).state(), "placed on the GPU not kept for the exclusive job");
        }
    }

    private static String reason(FakeCluster cluster, long id) {
        QueueEngine engine = new QueueEngine(cluster.database, cluster.queueNodes, cluster.clock, cluster.settings);
        return engine.pendingReasons().get(id);
    }
}
