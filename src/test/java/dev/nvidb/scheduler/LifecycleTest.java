package dev.nvidb.scheduler;

import static dev.nvidb.scheduler.Fixtures.GIB;
import static dev.nvidb.scheduler.Fixtures.NOW;
import static dev.nvidb.scheduler.Fixtures.gpu;
import static dev.nvidb.scheduler.Fixtures.job;
import static dev.nvidb.scheduler.Fixtures.node;
import static dev.nvidb.scheduler.Fixtures.outcome;
import static dev.nvidb.scheduler.Fixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.model.Job;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Held jobs are never placed; running jobs past their deadline are handed back to be killed. */
class LifecycleTest {

    private static final List<NodeCapacity> NODES = List.of(node("gpu-a", gpu(0, 80 * GIB)));

    @Test
    void heldJobIsNeverPlacedAndSaysWhy() {
        Plan plan = plan(NODES, job(1).vram(GIB).held("waiting for the new dataset").priority(9).pending(),
                job(2).vram(200 * GIB).held("too big, fixing").pending(), job(3).vram(GIB).pending());

        assertEquals("held: waiting for the new dataset", outcome(plan, 1));
        assertEquals("held: too big, fixing", outcome(plan, 2));
        assertEquals("gpu-a:0", outcome(plan, 3));
    }

    @ParameterizedTest(name = "timeout {0}s, started {1}s ago -> timed out: {2}")
    @CsvSource({"60, 61, true", "60, 60, true", "60, 59, false", "3600, 60, false"})
    void runningJobPastItsDeadlineIsTimedOut(long timeout, long startedAgo, boolean timedOut) {
        Job running = job(5).vram(GIB).timeout(timeout).startedAt(NOW.minusSeconds(startedAgo)).running("gpu-a", 0);

        Plan plan = plan(NODES, running);

        assertEquals(timedOut ? List.of(5L) : List.of(), plan.timedOut());
    }

    @Test
    void jobsWithoutTimeoutAndPendingJobsNeverTimeOut() {
        Plan plan = plan(NODES, job(5).startedAt(NOW.minusSeconds(1_000_000)).running("gpu-a", 0),
                job(6).timeout(1).pending());

        assertEquals(List.of(), plan.timedOut());
    }

    @Test
    void timedOutJobStillHoldsItsMemoryUntilKilled() {
        Job running = job(5).vram(70 * GIB).timeout(1).startedAt(NOW.minusSeconds(10)).running("gpu-a", 0);

        Plan plan = plan(NODES, running, job(6).vram(20 * GIB).pending());

        assertEquals(List.of(5L), plan.timedOut());
        assertEquals("waiting for 20480 MiB on 1 GPU (best: gpu-a GPU0 has 9728 MiB free)", outcome(plan, 6));
    }

    @Test
    void timedOutAreListedInIdOrder() {
        Plan plan = plan(NODES, job(9).timeout(1).running("gpu-a", 0), job(3).timeout(1).running("gpu-a", 0));

        assertEquals(List.of(3L, 9L), plan.timedOut());
    }
}
