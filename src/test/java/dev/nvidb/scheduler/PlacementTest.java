package dev.nvidb.scheduler;

import static dev.nvidb.scheduler.Fixtures.GIB;
import static dev.nvidb.scheduler.Fixtures.gpu;
import static dev.nvidb.scheduler.Fixtures.gpuWithForeign;
import static dev.nvidb.scheduler.Fixtures.gpuWithJobs;
import static dev.nvidb.scheduler.Fixtures.job;
import static dev.nvidb.scheduler.Fixtures.node;
import static dev.nvidb.scheduler.Fixtures.outcome;
import static dev.nvidb.scheduler.Fixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Where a job goes: VRAM budgets, spread and pack, multi-GPU jobs, and the capacity one plan consumes. */
class PlacementTest {

    private static final long CARD = 24 * GIB;

    @Test
    void placesAroundForeignProcesses() {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpuWithForeign(0, CARD, 20 * GIB), gpu(1, CARD)));

        Plan plan = plan(nodes, job(1).vram(8 * GIB).pending(), job(2).vram(4 * GIB).pending());

        assertEquals("gpu-a:1", outcome(plan, 1));
        // GPU0 has 24576 − 20480 − 512 = 3584 MiB; GPU1 has 24064 − 8192 = 15872 MiB after job 1.
        assertEquals("gpu-a:1", outcome(plan, 2));
    }

    @ParameterizedTest(name = "headroom {0}: {1} MiB -> {2}")
    @CsvSource({
            "512, 24064, gpu-a:0",
            "512, 24065, 'waiting for 24065 MiB on 1 GPU (best: gpu-a GPU1 has 0 MiB free)'",
            "0, 24576, gpu-a:0",
            "2048, 22529, 'waiting for 22529 MiB on 1 GPU (best: gpu-a GPU1 has 0 MiB free)'"})
    void headroomIsKeptFree(long headroom, long vram, String expected) {
        // GPU1 (80 GiB, full of foreign work) keeps the job schedulable; GPU0 is too small once
        // the headroom is kept, so the reason names GPU1 as the only card that could hold it.
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpu(0, CARD), gpuWithForeign(1, 80 * GIB, 80 * GIB)));

        Plan plan = plan(SchedulingPolicy.defaults().withHeadroomMb(headroom), nodes, job(1).vram(vram).pending());

        assertEquals(expected, outcome(plan, 1));
    }

    static Stream<Arguments> modes() {
        return Stream.of(
                Arguments.of(PlacementMode.SPREAD, "gpu-a:0", "gpu-a:0,2"),
                Arguments.of(PlacementMode.PACK, "gpu-a:1", "gpu-a:1,2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void spreadTakesEmptiestAndPackTakesFullestFittingGpu(PlacementMode mode, String oneGpu, String twoGpus) {
        // Free after headroom: GPU0 23552, GPU1 9216 (fits 8G), GPU2 15360, GPU3 3072 (too full).
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpuWithForeign(0, CARD, 512), gpuWithForeign(1, CARD, 14848),
                gpuWithForeign(2, CARD, 8704), gpuWithForeign(3, CARD, 20992)));
        SchedulingPolicy policy = SchedulingPolicy.defaults().withPlacement(mode);

        assertEquals(oneGpu, outcome(plan(policy, nodes, job(1).vram(8 * GIB).pending()), 1));
        assertEquals(twoGpus, outcome(plan(policy, nodes, job(1).gpus(2).vram(8 * GIB).pending()), 1));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"SPREAD, gpu-a:0, gpu-b:0", "PACK, gpu-a:0, gpu-a:0"})
    void spreadSpreadsAndPackKeepsWholeCardsFreeWithinOnePlan(PlacementMode mode, String first, String second) {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpu(0, CARD)), node("gpu-b", gpu(0, CARD)));

        Plan plan = plan(SchedulingPolicy.defaults().withPlacement(mode), nodes,
                job(1).vram(4 * GIB).pending(), job(2).vram(4 * GIB).pending());

        assertEquals(first, outcome(plan, 1));
        assertEquals(second, outcome(plan, 2));
    }

    @ParameterizedTest(name = "running job reserves 2 GiB, uses {0} MiB -> {1}")
    @CsvSource({
            "2048, gpu-a:0",
            "20480, 'waiting for 4096 MiB on 1 GPU (best: gpu-a GPU0 has 3584 MiB free)'"})
    void jobIsChargedTheLargerOfReservationAndMeasuredUse(long measured, String expected) {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpuWithJobs(0, CARD, 0, Map.of(1L, measured))));
        Plan plan = plan(nodes, job(1).vram(2 * GIB).running("gpu-a", 0), job(2).vram(4 * GIB).pending());

        assertEquals(expected, outcome(plan, 2));
    }

    @ParameterizedTest(name = "blind card, {0} MiB -> {1}")
    @CsvSource({"9064, gpu-a:0", "9065, 'waiting for 9065 MiB on 1 GPU (best: gpu-a GPU0 has 9064 MiB free)'"})
    void blindGpuCreditsRunningJobsUpToTheirReservation(long vram, String expected) {
        // 15000 MiB in use, job 1 reserved 8192 of it: 6808 foreign. Charging job 1 twice would leave 872.
        List<NodeCapacity> nodes = List.of(node("gpu-a", GpuCapacity.blind(0, "GPU-0", CARD, 15000)));

        Plan plan = plan(nodes, job(1).vram(8 * GIB).running("gpu-a", 0), job(2).vram(vram).pending());

        assertEquals(expected, outcome(plan, 2));
    }

    @Test
    void multiGpuJobIsNeverSplitAcrossNodes() {
        List<NodeCapacity> nodes = List.of(
                node("gpu-a", gpu(0, CARD), gpuWithForeign(1, CARD, CARD)),
                node("gpu-b", gpu(0, CARD), gpuWithForeign(1, CARD, CARD)));

        Plan plan = plan(nodes, job(1).gpus(2).vram(8 * GIB).pending());

        assertEquals("waiting for 2 GPUs with 8192 MiB each on one node (gpu-a has 1)", outcome(plan, 1));
    }

    @Test
    void multiGpuJobTakesAllItsGpusOnOneNode() {
        List<NodeCapacity> nodes = List.of(
                node("gpu-a", gpu(0, CARD), gpuWithForeign(1, CARD, CARD)),
                node("gpu-b", gpu(0, CARD), gpu(1, CARD), gpu(2, CARD)));

        Plan plan = plan(nodes, job(1).gpus(2).vram(8 * GIB).pending());

        assertEquals("gpu-b:0,1", outcome(plan, 1));
        assertEquals(List.of("GPU-0", "GPU-1"), plan.findPlacement(1).orElseThrow().gpuUuids());
    }

    @Test
    void placementsInOnePlanConsumeCapacityForLaterJobs() {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpu(0, CARD)));

        Plan plan = plan(nodes, job(1).vram(10 * GIB).pending(), job(2).vram(10 * GIB).pending(),
                job(3).vram(10 * GIB).pending());

        assertEquals("gpu-a:0", outcome(plan, 1));
        assertEquals("gpu-a:0", outcome(plan, 2));
        assertEquals("waiting for 10240 MiB on 1 GPU (best: gpu-a GPU0 has 3584 MiB free)", outcome(plan, 3));
    }

    @Test
    void tiesGoToTheEarlierNodeThenTheLowerIndex() {
        List<NodeCapacity> nodes = List.of(node("gpu-b", gpu(1, CARD), gpu(0, CARD)), node("gpu-a", gpu(0, CARD)));

        assertEquals("gpu-b:0", outcome(plan(nodes, job(1).vram(GIB).pending()), 1));
        assertEquals("gpu-b:0", outcome(plan(SchedulingPolicy.defaults().withPlacement(PlacementMode.PACK), nodes,
                job(1).vram(GIB).pending()), 1));
    }

    @Test
    void sameInputGivesTheSamePlan() {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpu(0, CARD), gpu(1, CARD)), node("gpu-b", gpu(0, CARD)));
        var jobs = List.of(job(3).vram(8 * GIB).pending(), job(1).gpus(2).vram(4 * GIB).pending(),
                job(2).gpus(0).pending(), job(4).vram(30 * GIB).pending());

        Plan first = plan(SchedulingPolicy.defaults(), nodes, jobs, Map.of());
        List<dev.nvidb.model.Job> reversed = new java.util.ArrayList<>(jobs);
        java.util.Collections.reverse(reversed);
        Plan second = plan(SchedulingPolicy.defaults(), nodes, reversed, Map.of());

        assertEquals(first, second);
    }
}
