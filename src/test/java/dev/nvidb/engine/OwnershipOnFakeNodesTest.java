package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.JobState;
import dev.nvidb.queue.GpuView;
import dev.nvidb.queue.NodeView;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.QueueStatus;
import dev.nvidb.store.AlertStore;
import dev.nvidb.testing.FakeNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who each GPU belongs to, classified on every probe, and the warning for a job that uses a
 * GPU it was not given: the real tick against the in-process fake node.
 */
class OwnershipOnFakeNodesTest {

    @TempDir
    Path dir;

    private static List<String> classes(FakeCluster cluster) {
        Queue queue = new Queue(new QueueEngine(cluster.database, cluster.queueNodes, cluster.clock, cluster.settings),
                Duration.ofSeconds(8), dev.nvidb.queue.Pause.sleeping());
        QueueStatus status = queue.reading().status(false, 0);
        NodeView node = status.nodes().get(0);
        return node.gpus().stream().map(GpuView::ownership).toList();
    }

    @Test
    void eachGpuIsFreeSharedExternalOrUnknown() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            FakeNode node = cluster.node("node-a").gpu("NVIDIA H100 80GB HBM3", 81559);
            cluster.tick();
            assertEquals(List.of("free", "free", "free"), classes(cluster));

            long id = cluster.submit("train", 1, 10_000, null, 0);
            cluster.tick();
            int given = cluster.job(id).assignment().gpuIds().get(0);
            node.uses(id, given, 9_000);
            node.foreignProcess(2, 4_000);
            cluster.tick();
            List<String> classes = classes(cluster);
            assertEquals("shared", classes.get(given), classes.toString());
            assertEquals("external", classes.get(2), classes.toString());

            node.reach(FakeNode.Reach.DOWN);
            cluster.clock.advanceSeconds(60);
            cluster.tick();
            assertEquals(List.of("unknown", "unknown", "unknown"), classes(cluster), "a node that does not answer");
        }
    }

    @Test
    void aJobUsingAGpuItWasNotGivenRaisesOneWarning() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long id = cluster.submit("rogue", 1, 10_000, null, 0);
            cluster.tick();
            assertEquals(JobState.RUNNING, cluster.job(id).state());
            int given = cluster.job(id).assignment().gpuIds().get(0);
            int other = 1 - given;
            cluster.node("node-a").uses(id, other, 12_000);
            cluster.tick();
            cluster.tick();
            List<dev.nvidb.store.Alert> alerts = new AlertStore(cluster.database).listOpen().stream()
                    .filter(alert -> alert.kind().equals("job_wrong_gpu")).toList();
            assertEquals(1, alerts.size(), "one warning per attempt, however many ticks see it: " + alerts);
            assertEquals("warning", alerts.get(0).severity());
            assertTrue(alerts.get(0).message().contains("uses GPU " + other + " of node-a but was given GPU " + given),
                    alerts.get(0).message());
            assertEquals(JobState.RUNNING, cluster.job(id).state(), "a warning, not a kill");
        }
    }
}
