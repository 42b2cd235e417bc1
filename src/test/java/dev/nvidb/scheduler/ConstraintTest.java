package dev.nvidb.scheduler;

import static dev.nvidb.scheduler.Fixtures.GIB;
import static dev.nvidb.scheduler.Fixtures.gpu;
import static dev.nvidb.scheduler.Fixtures.gpuWithForeign;
import static dev.nvidb.scheduler.Fixtures.job;
import static dev.nvidb.scheduler.Fixtures.node;
import static dev.nvidb.scheduler.Fixtures.outcome;
import static dev.nvidb.scheduler.Fixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What limits placement besides memory: allowlists, GPU and node state, drains, job counts, --node. */
class ConstraintTest {

    private static final long CARD = 24 * GIB;

    @Test
    void allowlistKeepsJobsOffUnlistedGpus() {
        NodeCapacity node = node("gpu-a", gpu(0, CARD), gpuWithForeign(1, CARD, 4 * GIB)).withGpuAllowlist(List.of(1));

        assertEquals("gpu-a:1", outcome(plan(List.of(node), job(1).vram(GIB).pending()), 1));
    }

    @Test
    void emptyAllowlistTakesCpuJobsButNoGpuJobs() {
        List<NodeCapacity> nodes = List.of(node("gpu-c", gpu(0, CARD)).withGpuAllowlist(List.of()),
                node("gpu-d", gpuWithForeign(0, CARD, CARD)));

        Plan plan = plan(nodes, job(1).gpus(0).pending(), job(2).vram(GIB).pending());

        assertEquals("gpu-c:cpu", outcome(plan, 1));
        assertEquals("waiting for 1024 MiB on 1 GPU (best: gpu-d GPU0 has 0 MiB free)", outcome(plan, 2));
    }

    @Test
    void gpuWhoseStateIsUnknownIsNeverATarget() {
        List<NodeCapacity> nodes = List.of(node("gpu-a", GpuCapacity.unknown(0, "GPU-0", 80 * GIB), gpu(1, CARD)));

        Plan plan = plan(nodes, job(1).vram(40 * GIB).pending(), job(2).vram(GIB).pending());

        assertEquals("waiting for 40960 MiB on 1 GPU (no GPU that could hold it reports its state: gpu-a GPU0 unknown)",
                outcome(plan, 1));
        assertEquals("gpu-a:1", outcome(plan, 2));
    }

    @Test
    void unreachableNodeContributesNoCapacity() {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpuWithForeign(0, CARD, 12 * GIB)),
                NodeCapacity.notAnswering("gpu-b", List.of(GpuCapacity.unknown(0, "GPU-0", CARD))));

        Plan plan = plan(nodes, job(1).vram(4 * GIB).pending(), job(2).vram(20 * GIB).pending());

        assertEquals("gpu-a:0", outcome(plan, 1));
        assertEquals("waiting for 20480 MiB on 1 GPU (best: gpu-a GPU0 has 7680 MiB free; gpu-b not answering)",
                outcome(plan, 2));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"not answering, node gpu-b is not answering", "never answered, node gpu-b is not answering"})
    void unreachableNodeDoesNotMakeAJobUnschedulable(String how, String expected) {
        NodeCapacity silent = how.equals("never answered") ? NodeCapacity.neverAnswered("gpu-b")
                : NodeCapacity.notAnswering("gpu-b", List.of(GpuCapacity.unknown(0, "GPU-0", 80 * GIB)));
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpu(0, CARD)), silent);

        Plan plan = plan(nodes, job(1).vram(40 * GIB).pending());

        assertEquals(expected, outcome(plan, 1));
    }

    @Test
    void drainedNodeTakesNoNewJobs() {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpu(0, CARD)).asDrained(), node("gpu-b", gpu(0, 12 * GIB)));

        Plan plan = plan(nodes, job(1).vram(4 * GIB).pending(), job(2).vram(20 * GIB).pending(),
                job(3).gpus(0).node("gpu-a").pending());

        assertEquals("gpu-b:0", outcome(plan, 1));
        assertEquals("node gpu-a is drained", outcome(plan, 2));
        assertEquals("node gpu-a is drained", outcome(plan, 3));
    }

    @Test
    void drainedNodeStillChargesItsRunningJobsAndIsNotReportedAsFree() {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpu(0, CARD)).asDrained(), node("gpu-b", gpu(0, CARD)).asDrained());

        Plan plan = plan(nodes, job(1).vram(GIB).running("gpu-a", 0), job(2).vram(GIB).pending());

        assertEquals("no node that could run it takes jobs now: gpu-a drained, gpu-b drained", outcome(plan, 2));
    }

    @ParameterizedTest(name = "max {0}, {1} running -> {2}")
    @CsvSource({
            "4, 3, 'gpu-a:cpu|waiting for a CPU slot on gpu-a (4 of 4 in use)'",
            "4, 4, 'waiting for a CPU slot on gpu-a (4 of 4 in use)|waiting for a CPU slot on gpu-a (4 of 4 in use)'",
            "0, 9, 'gpu-a:cpu|gpu-a:cpu'"})
    void cpuOnlyJobsAreBoundedPerNode(int max, int running, String expected) {
        List<dev.nvidb.model.Job> jobs = new java.util.ArrayList<>();
        for (int i = 0; i < running; i++) {
            jobs.add(job(100 + i).gpus(0).running("gpu-a"));
        }
        jobs.add(job(1).gpus(0).pending());
        jobs.add(job(2).gpus(0).pending());

        Plan plan = plan(SchedulingPolicy.defaults().withMaxCpuJobsPerNode(max), List.of(node("gpu-a", gpu(0, CARD))),
                jobs, java.util.Map.of());

        assertEquals(expected, outcome(plan, 1) + "|" + outcome(plan, 2));
    }

    @Test
    void cpuOnlyJobsSpreadOverNodesAndReserveNoMemory() {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpuWithForeign(0, CARD, CARD)), node("gpu-b"));

        Plan plan = plan(nodes, job(1).gpus(0).pending(), job(2).gpus(0).pending(), job(3).gpus(0).pending());

        assertEquals("gpu-a:cpu gpu-b:cpu gpu-a:cpu",
                outcome(plan, 1) + " " + outcome(plan, 2) + " " + outcome(plan, 3));
        assertTrue(plan.findPlacement(1).orElseThrow().gpuUuids().isEmpty());
    }

    @Test
    void cpuSlotsFullOnEveryNode() {
        List<NodeCapacity> nodes = List.of(node("gpu-a"), node("gpu-b"));
        Plan plan = plan(SchedulingPolicy.defaults().withMaxCpuJobsPerNode(1), nodes,
                job(7).gpus(0).running("gpu-a"), job(8).gpus(0).running("gpu-b"), job(1).gpus(0).pending());

        assertEquals("waiting for a CPU slot (all 2 nodes taking jobs have 1 of 1 in use)", outcome(plan, 1));
    }

    @Test
    void gpuHostingMaxJobsIsNotATarget() {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpu(0, 80 * GIB), gpu(1, CARD)));
        SchedulingPolicy policy = SchedulingPolicy.defaults().withMaxJobsPerGpu(2);

        Plan plan = plan(policy, nodes, job(7).vram(GIB).running("gpu-a", 0), job(8).vram(GIB).running("gpu-a", 0),
                job(1).vram(GIB).pending(), job(2).vram(GIB).pending(), job(3).vram(GIB).pending());

        assertEquals("gpu-a:1", outcome(plan, 1));
        assertEquals("gpu-a:1", outcome(plan, 2));
        assertEquals("waiting for 1024 MiB on 1 GPU (every GPU that could hold it has 2 jobs, the max_jobs_per_gpu)",
                outcome(plan, 3));
    }

    @Test
    void nodeConstraintPlacesOnlyOnThatNode() {
        List<NodeCapacity> nodes = List.of(node("gpu-a", gpu(0, 80 * GIB)), node("gpu-b", gpuWithForeign(0, CARD, 8 * GIB)));

        Plan plan = plan(nodes, job(1).vram(4 * GIB).node("gpu-b").pending(), job(2).vram(16 * GIB).node("gpu-b").pending(),
                job(3).vram(GIB).node("gpu-z").pending());

        assertEquals("gpu-b:0", outcome(plan, 1));
        assertEquals("waiting for 16384 MiB on 1 GPU (best: gpu-b GPU0 has 11776 MiB free)", outcome(plan, 2));
        assertEquals("node gpu-z is not a queue node (not configured, or ignored)", outcome(plan, 3));
    }

    @Test
    void noNodesAtAllHoldsJobs() {
        assertEquals("no queue nodes are configured", outcome(plan(List.of(), job(1).vram(GIB).pending()), 1));
    }
}
