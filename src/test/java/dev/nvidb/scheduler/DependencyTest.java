package dev.nvidb.scheduler;

import static dev.nvidb.scheduler.Fixtures.GIB;
import static dev.nvidb.scheduler.Fixtures.gpu;
import static dev.nvidb.scheduler.Fixtures.job;
import static dev.nvidb.scheduler.Fixtures.node;
import static dev.nvidb.scheduler.Fixtures.outcome;
import static dev.nvidb.scheduler.Fixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** --after needs success, --after-any any end; both hold a job while the other is unfinished. */
class DependencyTest {

    private static final List<NodeCapacity> NODES = List.of(node("gpu-a", gpu(0, 80 * GIB)));

    @ParameterizedTest(name = "--after on {0} -> {1}")
    @CsvSource({
            "completed, gpu-a:0",
            "failed, dependency failed: dependency 9 failed",
            "cancelled, dependency failed: dependency 9 was cancelled",
            "timeout, dependency failed: dependency 9 timed out",
            "lost, dependency failed: dependency 9 was lost",
            "running, dependency 9 not finished (running)",
            "pending, dependency 9 not finished (pending)",
            "purged, 'dependency failed: dependency 9 was purged, so its success cannot be checked'"})
    void afterNeedsSuccess(String state, String expected) {
        assertEquals(expected, outcome(planWithDependency(state, job(1).vram(GIB).after(9)), 1));
    }

    @ParameterizedTest(name = "--after-any on {0} -> {1}")
    @CsvSource({
            "completed, gpu-a:0",
            "failed, gpu-a:0",
            "cancelled, gpu-a:0",
            "lost, gpu-a:0",
            "purged, gpu-a:0",
            "running, dependency 9 not finished (running)",
            "pending, dependency 9 not finished (pending)"})
    void afterAnyNeedsAnyEnd(String state, String expected) {
        assertEquals(expected, outcome(planWithDependency(state, job(1).vram(GIB).afterAny(9)), 1));
    }

    @Test
    void failureRunsDownAChainInOnePlan() {
        Plan plan = plan(SchedulingPolicy.defaults(), NODES,
                List.of(job(2).after(1).pending(), job(3).after(2).pending(), job(4).afterAny(2).pending()),
                Map.of(1L, JobState.FAILED));

        assertEquals("dependency failed: dependency 1 failed", outcome(plan, 2));
        assertEquals("dependency failed: dependency 2 can never run: dependency 1 failed", outcome(plan, 3));
        // --after-any waits one tick: job 2 is failed by this plan's commit, then job 4 may run.
        assertEquals("dependency 2 not finished (pending)", outcome(plan, 4));
    }

    @Test
    void heldDependencyIsWaitedForNotFailed() {
        Plan plan = plan(SchedulingPolicy.defaults(), NODES,
                List.of(job(2).after(1).held("fixing job 1").pending(), job(3).after(2).pending()),
                Map.of(1L, JobState.FAILED));

        assertEquals("held: fixing job 1", outcome(plan, 2));
        assertEquals("dependency 2 not finished (held)", outcome(plan, 3));
    }

    @Test
    void severalUnfinishedDependenciesAreAllNamed() {
        Plan plan = plan(SchedulingPolicy.defaults(), NODES,
                List.of(job(4).running("gpu-a", 0), job(5).vram(200 * GIB).after(4).pending(),
                        job(6).after(4, 5).afterAny(3).pending()),
                Map.of(3L, JobState.COMPLETED));

        assertEquals("dependencies 4 (running), 5 (pending) not finished", outcome(plan, 6));
    }

    @Test
    void unschedulableIsDecidedWithoutWaitingForDependencies() {
        Plan plan = plan(SchedulingPolicy.defaults(), NODES,
                List.of(job(4).running("gpu-a", 0), job(5).vram(200 * GIB).after(4).pending()), Map.of());

        assertEquals("unschedulable: no GPU can hold 204800 MiB: the largest, gpu-a GPU0, has 81920 MiB, "
                + "81408 MiB after the 512 MiB headroom", outcome(plan, 5));
    }

    private static Plan planWithDependency(String state, Fixtures.JobBuilder dependent) {
        List<Job> jobs = new ArrayList<>(List.of(dependent.pending()));
        Map<Long, JobState> others = Map.of();
        switch (state) {
            case "running" -> jobs.add(job(9).gpus(0).running("gpu-a"));
            case "pending" -> jobs.add(job(9).gpus(0).node("gpu-z").pending());
            case "purged" -> { }
            default -> others = Map.of(9L, JobState.valueOf(state.toUpperCase(java.util.Locale.ROOT)));
        }
        return plan(SchedulingPolicy.defaults(), NODES, jobs, others);
    }
}
