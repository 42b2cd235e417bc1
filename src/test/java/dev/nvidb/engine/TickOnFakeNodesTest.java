package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.config.QueueConfig;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.store.AlertStore;
import dev.nvidb.store.EventStore;
import dev.nvidb.store.NodeStore;
import dev.nvidb.store.ReapStore;
import dev.nvidb.testing.FakeNode;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tick against in-process fake nodes and a clock the test moves: timeouts, the back-off
 * schedule, lost-after, kills owed, and users acting while a tick's request is in flight, all
 * without SSH and without sleeps.
 */
class TickOnFakeNodesTest {

    @TempDir
    Path dir;

    private static QueueConfig tuned(QueueConfig q, int lostAfterSeconds) {
        return new QueueConfig(q.includeLocal(), q.localNodeName(), q.tickMinInterval(), q.leaseSeconds(),
                q.headroomMb(), q.maxJobsPerGpu(), q.maxCpuJobsPerNode(), q.placement(), q.jobRoot(),
                q.killGraceSeconds(), q.backoffMaxSeconds(), lostAfterSeconds, q.logTailLines(), q.notifications(),
                q.backup());
    }

    @Test
    void placesAJobAndSettlesItsExitWithItsResult() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long id = cluster.submit("train");
            cluster.tick();
            Job running = cluster.job(id);
            assertEquals(JobState.RUNNING, running.state());
            assertEquals("node-a", running.assignment().node());
            assertEquals(1, cluster.node("node-a").running(id));

            cluster.node("node-a").progress(id, "epoch 3/10");
            cluster.node("node-a").exit(id, 0, "{\"loss\": 0.5}");
            cluster.tick();
            Job done = cluster.job(id);
            assertEquals(JobState.COMPLETED, done.state());
            assertEquals(0, done.exitCode());
            assertEquals("{\"loss\":0.5}", done.result().replace(" ", ""));
            assertEquals("epoch 3/10", done.progress());
        }
    }

    @Test
    void theLaunchRoundPublishesTheDemandLeftOnceItsJobsArePlaced() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long first = cluster.submit("train");
            cluster.submit("held");
            cluster.tick();
            assertEquals(JobState.RUNNING, cluster.job(first).state());
            List<com.fasterxml.jackson.databind.JsonNode> requests = cluster.node("node-a").requests();
            com.fasterxml.jackson.databind.JsonNode probe = requests.get(0);
            com.fasterxml.jackson.databind.JsonNode launch = requests.get(requests.size() - 1);
            assertEquals(2, probe.path("claims").path("demand").path("waiting").asInt(), probe.toString());
            assertFalse(launch.path("snapshot").asBoolean(true), launch.toString());
            assertEquals(2, launch.path("launch").size(), launch.toString());
            assertEquals(0, launch.path("claims").path("demand").path("waiting").asInt(-1),
                    "both jobs started: nothing waits any more: " + launch);
        }
    }

    @Test
    void aJobPastItsTimeoutEndsAsTimeoutAndItsProcessIsKilledInTheSameTick() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long id = cluster.submit("slow", 1, 1000, 60L, 0);
            cluster.tick();
            cluster.clock.advanceSeconds(59);
            cluster.tick();
            assertEquals(JobState.RUNNING, cluster.job(id).state());

            cluster.clock.advanceSeconds(2);
            cluster.tick();
            assertEquals(JobState.TIMEOUT, cluster.job(id).state());
            assertTrue(cluster.node("node-a").attempts(id).get(0).killed(), "the kill went out with the tick");
            assertEquals(List.of(), new ReapStore(cluster.database).list(null), "the kill was confirmed");
            assertEquals(List.of("job_timeout"), kinds(cluster));
        }
    }

    @Test
    void aFailingNodeIsContactedExactlyOnceAfterEachBackOffExpires() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            FakeNode node = cluster.node("node-a");
            node.reach(FakeNode.Reach.DOWN);
            cluster.tick();
            assertEquals(1, node.requests().size());
            // Back-off: 5 s after the first failure, then 10 s, then 20 s.
            int[] waits = {5, 10, 20};
            for (int wait : waits) {
                for (int second = 1; second < wait; second++) {
                    cluster.clock.advanceSeconds(1);
                    int before = node.requests().size();
                    cluster.tick();
                    assertEquals(before, node.requests().size(), "contacted " + second + " s into a " + wait + " s back-off");
                }
                int before = node.requests().size();
                cluster.clock.advanceSeconds(1);
                cluster.tick();
                assertEquals(before + 1, node.requests().size(), "one retry when the " + wait + " s back-off expired");
                cluster.tick();
                assertEquals(before + 1, node.requests().size(), "and only one");
            }
            assertEquals(4, new NodeStore(cluster.database).listNodes().get(0).consecutiveFailures());

            node.reach(FakeNode.Reach.UP);
            cluster.clock.advanceSeconds(40);
            cluster.tick();
            assertEquals(0, new NodeStore(cluster.database).listNodes().get(0).consecutiveFailures());
        }
    }

    @Test
    void aHungNodeCostsOneTimeoutPerBackOffPeriodAndNothingElseWaits() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a", "node-b")) {
            cluster.node("node-b").reach(FakeNode.Reach.HANGING);
            long id = cluster.submit("train");
            cluster.tick();
            assertEquals("node-a", cluster.job(id).assignment().node(), "placed on the node that answered");
            cluster.tick();
            assertEquals(1, cluster.node("node-b").requests().size(), "backing off: not asked again");
        }
    }

    @Test
    void aJobWhoseNodeStaysAwayIsLostAfterLostAfterSecondsAndKilledWhenTheNodeReturns() {
        try (FakeCluster cluster = new FakeCluster(dir, q -> tuned(q, 600), "node-a")) {
            FakeNode node = cluster.node("node-a");
            long id = cluster.submit("train");
            cluster.tick();
            node.reach(FakeNode.Reach.DOWN);
            cluster.tick();
            assertEquals(JobState.RUNNING, cluster.job(id).state(), "unverified, not yet lost");
            for (int minute = 1; minute < 10; minute++) {
                cluster.clock.advanceSeconds(60);
                cluster.tick();
            }
            assertEquals(JobState.RUNNING, cluster.job(id).state(), "540 s is not 600 s");
            cluster.clock.advanceSeconds(61);
            cluster.tick();
            Job lost = cluster.job(id);
            assertEquals(JobState.LOST, lost.state());
            assertEquals(1, new ReapStore(cluster.database).list("node-a").size(), "a kill is owed");

            node.reach(FakeNode.Reach.UP);
            cluster.clock.advanceSeconds(400);
            cluster.tick();
            assertEquals(0, node.running(id), "the returning node's copy was killed");
            assertEquals(List.of(), new ReapStore(cluster.database).list(null));
            assertEquals(JobState.LOST, cluster.job(id).state());
        }
    }

    @Test
    void aJobCancelledWhileItsNodeIsDownIsKilledByTheFirstProbeThatReachesIt() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            FakeNode node = cluster.node("node-a");
            long id = cluster.submit("train");
            cluster.tick();
            node.reach(FakeNode.Reach.DOWN);
            cluster.tick();
            assertTrue(cluster.cancel(id));
            assertEquals(JobState.CANCELLED, cluster.job(id).state());
            assertEquals(1, node.running(id), "nobody could reach it yet");

            node.reach(FakeNode.Reach.UP);
            cluster.clock.advanceSeconds(5);
            cluster.tick();
            assertEquals(0, node.running(id));
            assertEquals(List.of(), new ReapStore(cluster.database).list(null));
        }
    }

    @Test
    void anExitReportDoesNotOverwriteARequeueThatLandedWhileTheProbeWasInFlight() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            FakeNode node = cluster.node("node-a");
            long id = cluster.submit("train");
            cluster.tick();
            node.progress(id, "epoch 9/10");
            node.exit(id, 0, "{\"loss\": 0.1}");
            AtomicBoolean once = new AtomicBoolean();
            node.whileInFlight(request -> {
                if (request.path("jobs").size() > 0 && once.compareAndSet(false, true)) {
                    assertTrue(cluster.requeue(id));
                }
            });
            cluster.tick();
            Job job = cluster.job(id);
            assertFalse(job.state().finished(), "the requeue wins: " + job.state());
            assertNull(job.result(), "the old attempt's result is not written on the requeued job");
            assertNull(job.progress());
            assertFalse(events(cluster, id).contains("completed"), events(cluster, id).toString());
        }
    }

    @Test
    void aFailureReportDoesNotOverwriteACancelThatLandedWhileTheProbeWasInFlight() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            FakeNode node = cluster.node("node-a");
            long id = cluster.submit("train");
            cluster.tick();
            node.exit(id, 3, null);
            AtomicBoolean once = new AtomicBoolean();
            node.whileInFlight(request -> {
                if (request.path("jobs").size() > 0 && once.compareAndSet(false, true)) {
                    assertTrue(cluster.cancel(id));
                }
            });
            cluster.tick();
            assertEquals(JobState.CANCELLED, cluster.job(id).state());
            assertEquals(List.of(), kinds(cluster), "no job_failed alert for a cancelled job");
        }
    }

    @Test
    void aJobCancelledWhileItsLaunchIsInFlightIsKilledAtOnce() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            FakeNode node = cluster.node("node-a");
            long id = cluster.submit("train");
            node.whileInFlight(request -> {
                if (request.path("launch").size() > 0) {
                    assertTrue(cluster.cancel(id));
                }
            });
            cluster.tick();
            assertEquals(JobState.CANCELLED, cluster.job(id).state());
            assertEquals(1, node.attempts(id).size(), "launched once");
            assertEquals(0, node.running(id), "and killed in the same command");
        }
    }

    @Test
    void aRunningJobIsChargedItsMeasuredUseAndTheNextJobGoesElsewhere() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            FakeNode node = cluster.node("node-a");
            long first = cluster.submit("first", 1, 1000, null, 0);
            cluster.tick();
            int gpu = cluster.job(first).assignment().gpuIds().get(0);
            node.uses(first, gpu, 70_000);
            cluster.tick();
            long second = cluster.submit("second", 1, 20_000, null, 0);
            cluster.tick();
            assertEquals(1 - gpu, cluster.job(second).assignment().gpuIds().get(0));
        }
    }

    private static List<String> kinds(FakeCluster cluster) {
        return new AlertStore(cluster.database).listOpen().stream().map(alert -> String.valueOf(alert.kind()))
                .filter(kind -> !kind.equals("node_down")).toList();
    }

    private static List<String> events(FakeCluster cluster, long id) {
        return new EventStore(cluster.database).listSince(0, id, 1000).stream()
                .map(event -> String.valueOf(event.kind())).toList();
    }
}
