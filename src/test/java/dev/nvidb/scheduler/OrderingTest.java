package dev.nvidb.scheduler;

import static dev.nvidb.scheduler.Fixtures.GIB;
import static dev.nvidb.scheduler.Fixtures.gpu;
import static dev.nvidb.scheduler.Fixtures.gpuWithForeign;
import static dev.nvidb.scheduler.Fixtures.job;
import static dev.nvidb.scheduler.Fixtures.node;
import static dev.nvidb.scheduler.Fixtures.outcome;
import static dev.nvidb.scheduler.Fixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Priority, then FIFO; backfill past a job that fits nowhere now, but never onto the GPUs kept
 * for it (so a big job is not starved by a stream of small ones).
 */
class OrderingTest {

    private static final long CARD = 24 * GIB;
    private static final List<NodeCapacity> ROOM_FOR_ONE = List.of(node("gpu-a", gpuWithForeign(0, CARD, 12 * GIB)));

    @Test
    void higherPriorityGoesFirst() {
        Plan plan = plan(ROOM_FOR_ONE, job(1).vram(8 * GIB).pending(), job(2).vram(8 * GIB).priority(5).pending());

        assertEquals("gpu-a:0", outcome(plan, 2));
        assertEquals("waiting for 8192 MiB on 1 GPU (best: gpu-a GPU0 has 3584 MiB free)", outcome(plan, 1));
    }

    @Test
    void equalPrioritiesGoInSubmissionOrder() {
        Plan plan = plan(ROOM_FOR_ONE, job(9).vram(8 * GIB).pending(), job(4).vram(8 * GIB).pending());

        assertEquals("gpu-a:0", outcome(plan, 4));
        assertEquals(List.of(4L), plan.placements().stream().map(Placement::jobId).toList());
    }

    @Test
    void placementsAreListedInDecisionOrder() {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpu(0, 80 * GIB)));

        Plan plan = plan(nodes, job(1).vram(GIB).pending(), job(2).vram(GIB).priority(3).pending(),
                job(3).vram(GIB).priority(3).pending());

        assertEquals(List.of(2L, 3L, 1L), plan.placements().stream().map(Placement::jobId).toList());
    }

    @Test
    void smallerJobsBackfillPastABigJobOnGpusItCannotUse() {
        // GPU0: 11776 free (closest to the big job), GPU1: 5632 free.
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpuWithForeign(0, CARD, 12 * GIB), gpuWithForeign(1, CARD, 18 * GIB)));

        Plan plan = plan(nodes, job(1).vram(20 * GIB).priority(5).pending(), job(2).vram(4 * GIB).pending());

        assertEquals("waiting for 20480 MiB on 1 GPU (best: gpu-a GPU0 has 11776 MiB free)", outcome(plan, 1));
        assertEquals("gpu-a:1", outcome(plan, 2));
    }

    @Test
    void laterJobsDoNotTakeTheGpuKeptForAnEarlierBlockedJob() {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpuWithForeign(0, CARD, 12 * GIB), gpuWithForeign(1, CARD, CARD)));

        Plan plan = plan(nodes, job(1).vram(20 * GIB).priority(5).pending(), job(2).vram(4 * GIB).pending(),
                job(3).vram(4 * GIB).priority(5).pending());

        assertEquals("behind higher-priority job 1 (gpu-a GPU0 is kept for it)", outcome(plan, 2));
        assertEquals("behind job 1 (gpu-a GPU0 is kept for it)", outcome(plan, 3));
    }

    @Test
    void jobsThatCannotStartAnywayKeepNothing() {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpuWithForeign(0, CARD, 12 * GIB)));

        Plan plan = plan(nodes, job(1).vram(20 * GIB).held("waiting for data").pending(),
                job(2).vram(20 * GIB).after(99).pending(), job(3).vram(100 * GIB).pending(),
                job(4).vram(20 * GIB).node("gpu-z").pending(), job(5).vram(4 * GIB).pending());

        assertEquals("gpu-a:0", outcome(plan, 5));
    }

    @Test
    void multiGpuJobKeepsTheNodeClosestToFittingIt() {
        List<NodeCapacity> nodes = List.of(
                node("gpu-a", gpu(0, CARD), gpuWithForeign(1, CARD, CARD)),
                node("gpu-b", gpu(0, CARD), gpuWithForeign(1, CARD, 20 * GIB)));

        Plan plan = plan(nodes, job(1).gpus(2).vram(8 * GIB).pending(), job(2).vram(GIB).pending(),
                job(3).vram(GIB).pending(), job(4).vram(GIB).pending());

        // gpu-b is closer (its second card has 3584 MiB free, gpu-a's has none): both its GPUs are kept.
        assertEquals("gpu-a:0", outcome(plan, 2));
        assertEquals("gpu-a:0", outcome(plan, 3));
        assertEquals("gpu-a:0", outcome(plan, 4));
    }

    @Test
    void cpuJobsAreNeverHeldBehindGpuJobs() {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpuWithForeign(0, CARD, 12 * GIB)));

        Plan plan = plan(nodes, job(1).vram(20 * GIB).priority(9).pending(), job(2).gpus(0).pending());

        assertEquals("gpu-a:cpu", outcome(plan, 2));
    }
}
