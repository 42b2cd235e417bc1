package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.Dependency;
import dev.nvidb.model.JobSpec;
import dev.nvidb.model.JobState;
import dev.nvidb.queue.JobChange;
import dev.nvidb.queue.Pause;
import dev.nvidb.queue.Queue;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.ReapStore;
import dev.nvidb.testing.FakeNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cancel never contradicts an exit the node already recorded (issue 7, item 7): a job that
 * exited but was not settled yet ends as its exit file says, and its {@code --after}
 * dependents run. While its node does not answer, the cancel is owed and the job stays
 * running; the first tick that hears from the node settles or cancels it.
 */
class CancelFinishedJobTest {

    @TempDir
    Path dir;

    private static Queue queue(FakeCluster cluster) {
        return new Queue(new QueueEngine(cluster.database, cluster.queueNodes, cluster.clock, cluster.settings),
                Duration.ofSeconds(10), Pause.sleeping());
    }

    private static long after(FakeCluster cluster, long first) {
        JobSpec spec = new JobSpec("then", "python eval.py", 1, 1000, null, null, Map.of(),
                List.of(new Dependency(first, true)), null, 0, List.of(), "tester@here");
        return new JobStore(cluster.database).insert(spec, 0, null, cluster.clock.instant());
    }

    @Test
    void cancellingAJobThatExitedButIsNotSettledRecordsItsExitAndItsDependentsRun() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long first = cluster.submit("train");
            long then = after(cluster, first);
            cluster.tick();
            assertEquals(JobState.RUNNING, cluster.job(first).state());
            cluster.node("node-a").exit(first, 0, null);

            List<JobChange> changes = queue(cluster).control().cancel(List.of(first));
            assertFalse(changes.get(0).changed(), changes.toString());
            assertEquals("job " + first + " already ended: completed (exit 0)", changes.get(0).message());
            assertEquals(JobState.COMPLETED, cluster.job(first).state());
            assertEquals(0, cluster.job(first).exitCode());
            assertFalse(cluster.node("node-a").attempts(first).get(0).killed(), "nothing to kill");

            cluster.tick();
            assertEquals(JobState.RUNNING, cluster.job(then).state(), "the dependent runs");
        }
    }

    @Test
    void aRunningJobIsStillCancelledAndKilledAtOnce() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long first = cluster.submit("train");
            long then = after(cluster, first);
            cluster.tick();
            List<JobChange> changes = queue(cluster).control().cancel(List.of(first));
            assertTrue(changes.get(0).changed(), changes.toString());
            assertEquals(JobState.CANCELLED, cluster.job(first).state());
            assertTrue(cluster.node("node-a").attempts(first).get(0).killed());
            cluster.tick();
            assertEquals(JobState.FAILED, cluster.job(then).state(), "a cancelled dependency fails --after");
        }
    }

    @Test
    void whileTheNodeIsSilentTheCancelIsOwedAndTheExitFileStillWins() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long first = cluster.submit("train");
            long then = after(cluster, first);
            cluster.tick();
            FakeNode node = cluster.node("node-a");
            node.exit(first, 0, null);
            node.reach(FakeNode.Reach.DOWN);

            List<JobChange> changes = queue(cluster).control().cancel(List.of(first));
            assertTrue(changes.get(0).changed(), changes.toString());
            assertTrue(changes.get(0).message().contains("did not answer"), changes.get(0).message());
            assertEquals(JobState.RUNNING, cluster.job(first).state(), "not cancelled while nobody can tell");
            cluster.tick();
            assertEquals(JobState.PENDING, cluster.job(then).state(), "the dependent keeps waiting");

            node.reach(FakeNode.Reach.UP);
            cluster.clock.advanceSeconds(60);
            cluster.tick();
            assertEquals(JobState.COMPLETED, cluster.job(first).state(), "the exit file wins");
            cluster.tick();
            assertEquals(JobState.RUNNING, cluster.job(then).state());
        }
    }

    @Test
    void whileTheNodeIsSilentTheCancelIsOwedAndCarriedOutWhenItAnswers() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long first = cluster.submit("train");
            long then = after(cluster, first);
            cluster.tick();
            FakeNode node = cluster.node("node-a");
            node.reach(FakeNode.Reach.DOWN);
            queue(cluster).control().cancel(List.of(first));
            assertEquals(JobState.RUNNING, cluster.job(first).state());

            node.reach(FakeNode.Reach.UP);
            cluster.clock.advanceSeconds(60);
            cluster.tick();
            assertEquals(JobState.CANCELLED, cluster.job(first).state());
            assertTrue(node.attempts(first).get(0).killed(), "killed by the tick that reached the node");
            assertEquals(List.of(), new ReapStore(cluster.database).list(null));
            cluster.tick();
            assertEquals(JobState.FAILED, cluster.job(then).state());
            assertEquals(1, node.attempts(first).size(), "never launched again");
        }
    }
}
