package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.scheduler.Placement;
import dev.nvidb.scheduler.Plan;
import dev.nvidb.store.AlertStore;
import dev.nvidb.store.EventStore;
import dev.nvidb.store.JobStore;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plan is committed against the snapshot it was made from: whatever a person did to a job
 * between the planner's read and the commit wins over the stale plan, and the commit neither
 * fails nor alerts about it. The window is driven exactly: snapshot, person, commit.
 */
class PlanCommitRaceTest {

    @TempDir
    Path dir;

    private static Plan plan(List<Placement> placements, Map<Long, String> unschedulable,
                             Map<Long, String> dependencyFailed, List<Long> timedOut) {
        return new Plan(placements, Map.of(), unschedulable, dependencyFailed, timedOut);
    }

    private static Map<String, List<Placements.Launch>> commit(FakeCluster cluster, Plan plan, Map<Long, Job> seen) {
        Alerts alerts = new Alerts(new AlertStore(cluster.database));
        return new Placements(cluster.database, cluster.queueNodes, cluster.settings, alerts, cluster.clock)
                .commit(plan, seen, cluster.clock.instant());
    }

    @Test
    void aCancelBetweenPlanAndCommitIsNotTurnedIntoUnschedulable() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long id = cluster.submit("big");
            Map<Long, Job> seen = Map.of(id, cluster.job(id));
            assertTrue(cluster.cancel(id));
            commit(cluster, plan(List.of(), Map.of(id, "needs 200 GB"), Map.of(), List.of()), seen);
            assertEquals(JobState.CANCELLED, cluster.job(id).state());
            assertEquals("cancelled by request", cluster.job(id).lastError());
            assertEquals(List.of(), new AlertStore(cluster.database).listOpen());
        }
    }

    @Test
    void aCancelBetweenPlanAndCommitIsNotTurnedIntoDependencyFailed() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long id = cluster.submit("after");
            Map<Long, Job> seen = Map.of(id, cluster.job(id));
            assertTrue(cluster.cancel(id));
            commit(cluster, plan(List.of(), Map.of(), Map.of(id, "job 1 failed"), List.of()), seen);
            assertEquals(JobState.CANCELLED, cluster.job(id).state());
            assertEquals(List.of(), new AlertStore(cluster.database).listOpen());
        }
    }

    @Test
    void aCancelBetweenPlanAndCommitIsNeverPlacedOrLaunched() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long id = cluster.submit("train");
            Map<Long, Job> seen = Map.of(id, cluster.job(id));
            assertTrue(cluster.cancel(id));
            var launches = commit(cluster, plan(List.of(new Placement(id, "node-a", List.of(0), List.of("GPU-0"))),
                    Map.of(), Map.of(), List.of()), seen);
            assertEquals(Map.of(), launches);
            assertEquals(JobState.CANCELLED, cluster.job(id).state());
        }
    }

    @Test
    void aRequeueBetweenPlanAndCommitWinsOverATimeout() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long id = cluster.submit("slow", 1, 1000, 60L, 0);
            cluster.tick();
            Map<Long, Job> seen = Map.of(id, cluster.job(id));
            assertTrue(cluster.requeue(id));
            commit(cluster, plan(List.of(), Map.of(), Map.of(), List.of(id)), seen);
            assertEquals(JobState.PENDING, cluster.job(id).state());
            assertFalse(new EventStore(cluster.database).listSince(0, id, 100).stream()
                    .anyMatch(event -> String.valueOf(event.kind()).equals("timeout")));
        }
    }

    @Test
    void aJobPurgedBetweenPlanAndCommitIsSkipped() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long gone = cluster.submit("gone");
            long stays = cluster.submit("stays");
            Map<Long, Job> seen = Map.of(gone, cluster.job(gone), stays, cluster.job(stays));
            assertTrue(cluster.cancel(gone));
            new JobStore(cluster.database).purge(EnumSet.of(JobState.CANCELLED), cluster.clock.instant());
            var launches = commit(cluster, plan(List.of(new Placement(gone, "node-a", List.of(0), List.of("GPU-0")),
                    new Placement(stays, "node-a", List.of(1), List.of("GPU-1"))), Map.of(gone, "x"), Map.of(),
                    List.of()), seen);
            assertEquals(1, launches.get("node-a").size());
            assertEquals(JobState.RUNNING, cluster.job(stays).state());
        }
    }
}
