package dev.nvidb.scheduler;

import static dev.nvidb.scheduler.Fixtures.GIB;
import static dev.nvidb.scheduler.Fixtures.NOW;
import static dev.nvidb.scheduler.Fixtures.gpu;
import static dev.nvidb.scheduler.Fixtures.gpuWithForeign;
import static dev.nvidb.scheduler.Fixtures.job;
import static dev.nvidb.scheduler.Fixtures.node;
import static dev.nvidb.scheduler.Fixtures.uuid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.scheduler.Explanation.BlockerKind;
import dev.nvidb.scheduler.Explanation.DependencyVerdict;
import dev.nvidb.scheduler.Explanation.FitKind;
import dev.nvidb.scheduler.Explanation.GpuKind;
import dev.nvidb.scheduler.Explanation.GpuVerdict;
import dev.nvidb.scheduler.Explanation.NodeKind;
import dev.nvidb.scheduler.Explanation.NodeVerdict;
import dev.nvidb.scheduler.Explanation.Outcome;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code job why} against hand-built ticks: every kind of reason, with its figures. */
class ExplainerTest {

    private static Explanation explain(List<NodeCapacity> nodes, long jobId, Job... jobs) {
        return explain(nodes, jobId, Map.of(), List.of(), jobs);
    }

    private static Explanation explain(List<NodeCapacity> nodes, long jobId, Map<Long, JobState> others,
                                       List<String> ignored, Job... jobs) {
        List<Job> pending = List.of(jobs).stream().filter(job -> job.state() == JobState.PENDING).toList();
        List<Job> running = List.of(jobs).stream().filter(job -> job.state() == JobState.RUNNING).toList();
        return Explainer.explain(new QueueSnapshot(pending, running, others), nodes, SchedulingPolicy.defaults(), NOW,
                jobId, ignored);
    }

    private static NodeVerdict verdict(Explanation explanation, String name) {
        return explanation.nodes().stream().filter(node -> node.node().equals(name)).findFirst().orElseThrow();
    }

    private static GpuVerdict gpuOf(Explanation explanation, String name, int index) {
        return verdict(explanation, name).gpus().stream().filter(gpu -> gpu.index() == index).findFirst().orElseThrow();
    }

    private static List<BlockerKind> kinds(Explanation explanation) {
        return explanation.blockers().stream().map(Explanation.Blocker::kind).toList();
    }

    @Test
    void tooLittleFreeMemoryGivesEachGpusFiguresAndTheGpuKeptForIt() {
        Job big = job(1).vram(50 * GIB).pending();
        Job other = job(2).vram(60 * GIB).running("gpu-a", 1);
        Explanation why = explain(List.of(node("gpu-a", gpuWithForeign(0, 80 * GIB, 40 * GIB), gpu(1, 80 * GIB))),
                1, big, other);

        assertEquals(Outcome.WAITS, why.outcome());
        assertEquals("waiting for 51200 MiB on 1 GPU (best: gpu-a GPU0 has 40448 MiB free)", why.reason());
        assertEquals(List.of(BlockerKind.NO_ROOM), kinds(why));
        GpuVerdict foreign = gpuOf(why, "gpu-a", 0);
        assertEquals(GpuKind.SHORT, foreign.kind());
        assertEquals(40 * GIB, foreign.budget().externalMb());
        assertEquals(40448L, foreign.freeMb());
        assertEquals("short by 10752 MiB (kept for this job)", foreign.message());
        GpuVerdict queued = gpuOf(why, "gpu-a", 1);
        assertEquals(60 * GIB, queued.budget().chargedMb());
        assertEquals(20 * GIB - 512, queued.freeMb());
        assertEquals(NodeKind.NO_ROOM, verdict(why, "gpu-a").kind());
        assertEquals(FitKind.LATER, why.fit().kind());
        assertEquals(List.of(0), why.fit().gpuIndices());
        assertEquals("nowhere now; first on gpu-a GPU0 (kept for it), once 10752 MiB more is free there",
                why.fit().message());
    }

    @Test
    void aGpuOfUnknownStateIsNeverATarget() {
        Explanation why = explain(List.of(node("gpu-a", GpuCapacity.unknown(0, uuid(0), 80 * GIB))), 1,
                job(1).vram(20 * GIB).pending());

        assertEquals(GpuKind.UNKNOWN, gpuOf(why, "gpu-a", 0).kind());
        assertNull(gpuOf(why, "gpu-a", 0).freeMb());
        assertEquals(List.of(BlockerKind.NO_ROOM), kinds(why));
        assertEquals(FitKind.LATER, why.fit().kind());
        assertTrue(why.fit().message().contains("gpu-a GPU0 unknown"), why.fit().message());
    }

    @Test
    void drainedAndSilentNodesAreNamedAndTakeNothing() {
        NodeCapacity drained = node("gpu-a", gpu(0, 80 * GIB)).asDrained();
        NodeCapacity silent = NodeCapacity.notAnswering("gpu-b", List.of(GpuCapacity.unknown(0, uuid(0), 80 * GIB)));
        Explanation why = explain(List.of(drained, silent), 1, job(1).vram(20 * GIB).pending());

        assertEquals(NodeKind.DRAINED, verdict(why, "gpu-a").kind());
        assertEquals(GpuKind.FITS, gpuOf(why, "gpu-a", 0).kind(), "the card itself has room");
        assertEquals(0, verdict(why, "gpu-a").fitting());
        assertEquals(NodeKind.NOT_ANSWERING, verdict(why, "gpu-b").kind());
        assertEquals(List.of(BlockerKind.NO_NODE_TAKES_JOBS), kinds(why));
        assertEquals(FitKind.UNAVAILABLE, why.fit().kind());
        assertEquals("no node that could run it takes jobs now: gpu-a drained, gpu-b not answering", why.reason());
    }

    @Test
    void aJobPinnedToAnotherNodeSaysSoForTheNodesItSkips() {
        Explanation why = explain(List.of(node("gpu-a", gpu(0, 80 * GIB)), node("gpu-b", gpuWithForeign(0, 80 * GIB, 70 * GIB))),
                1, job(1).vram(20 * GIB).node("gpu-b").pending());

        assertEquals(NodeKind.NOT_PINNED, verdict(why, "gpu-a").kind());
        assertEquals("the job is pinned to gpu-b (--node)", verdict(why, "gpu-a").message());
        assertEquals(NodeKind.NO_ROOM, verdict(why, "gpu-b").kind());
        assertEquals(FitKind.LATER, why.fit().kind());
        assertEquals("gpu-b", why.fit().node());
    }

    @Test
    void aJobPinnedToNoQueueNodeHasNowhereToGo() {
        Explanation why = explain(List.of(node("gpu-a", gpu(0, 80 * GIB))), 1, Map.of(), List.of("gpu-z"),
                job(1).vram(GIB).node("gpu-z").pending());

        assertEquals(List.of(BlockerKind.NOT_A_QUEUE_NODE), kinds(why));
        assertEquals(FitKind.NO_NODE, why.fit().kind());
        assertEquals(NodeKind.IGNORED, verdict(why, "gpu-z").kind());
    }

    @Test
    void anUnfinishedDependencyIsNamedAndTheJobWouldStartWhereTheSchedulerPutsIt() {
        Job first = job(5).vram(10 * GIB).running("gpu-a", 0);
        Explanation why = explain(List.of(node("gpu-a", gpu(0, 80 * GIB), gpu(1, 80 * GIB))), 6,
                first, job(6).vram(10 * GIB).after(5).afterAny(4).pending());

        assertEquals(Outcome.WAITS, why.outcome());
        assertEquals("dependency 5 not finished (running)", why.reason());
        assertEquals(List.of(BlockerKind.DEPENDENCY_WAITING), kinds(why));
        assertEquals(List.of(5L), why.blockers().get(0).jobIds());
        assertEquals(DependencyVerdict.WAITING, why.dependencies().get(0).verdict());
        assertEquals(JobState.RUNNING, why.dependencies().get(0).state());
        assertEquals(DependencyVerdict.MET, why.dependencies().get(1).verdict(), "4 was purged: --after-any is met");
        assertEquals(FitKind.NOW, why.fit().kind());
        assertEquals("gpu-a", why.fit().node());
        assertEquals(List.of(1), why.fit().gpuIndices(), "spread: the emptier GPU");
    }

    @Test
    void aFailedDependencyFailsTheJob() {
        Explanation why = explain(List.of(node("gpu-a", gpu(0, 80 * GIB))), 6, Map.of(5L, JobState.CANCELLED),
                List.of(), job(6).after(5).pending());

        assertEquals(Outcome.DEPENDENCY_FAILED, why.outcome());
        assertEquals("dependency 5 was cancelled", why.reason());
        assertEquals(List.of(BlockerKind.DEPENDENCY_FAILED), kinds(why));
        assertEquals(DependencyVerdict.FAILED, why.dependencies().get(0).verdict());
    }

    @Test
    void aHeldJobSaysSoAndWhereItWouldStart() {
        Explanation why = explain(List.of(node("gpu-a", gpu(0, 80 * GIB))), 1, job(1).held("two launches failed").pending());

        assertEquals(List.of(BlockerKind.HELD), kinds(why));
        assertEquals("held: two launches failed", why.reason());
        assertEquals(FitKind.NOW, why.fit().kind());
    }

    @Test
    void aJobBehindAnEarlierOneNamesItAndTheGpuKeptForIt() {
        Job starved = job(1).vram(70 * GIB).pending();
        Job small = job(2).vram(10 * GIB).pending();
        Explanation why = explain(List.of(node("gpu-a", gpuWithForeign(0, 80 * GIB, 20 * GIB))), 2, starved, small);

        assertEquals("behind job 1 (gpu-a GPU0 is kept for it)", why.reason());
        assertEquals(List.of(BlockerKind.KEPT_FOR_EARLIER_JOB), kinds(why));
        assertEquals(List.of(1L), why.blockers().get(0).jobIds());
        GpuVerdict kept = gpuOf(why, "gpu-a", 0);
        assertEquals(GpuKind.KEPT, kept.kind());
        assertEquals(1L, kept.keptFor());
        assertEquals(FitKind.BEHIND, why.fit().kind());
        assertEquals(List.of(1L), why.fit().keptFor());
        assertEquals("on gpu-a GPU0 once job 1 no longer keeps it", why.fit().message());
    }

    @Test
    void tooFewGpusOnEveryNodeIsNever() {
        Explanation why = explain(List.of(node("gpu-a", gpu(0, 80 * GIB), gpu(1, 80 * GIB))), 1,
                job(1).gpus(4).vram(GIB).pending());

        assertEquals(Outcome.NEVER, why.outcome());
        assertEquals(List.of(BlockerKind.NEVER_FITS), kinds(why));
        assertEquals(NodeKind.NEVER_FITS, verdict(why, "gpu-a").kind());
        assertEquals("offers 2 GPUs to the queue; the job needs 4", verdict(why, "gpu-a").message());
        assertEquals(FitKind.NEVER, why.fit().kind());
    }

    @Test
    void tooFewGpusWithRoomNowIsCountedPerNode() {
        Explanation why = explain(List.of(node("gpu-a", gpu(0, 80 * GIB), gpuWithForeign(1, 80 * GIB, 75 * GIB))), 1,
                job(1).gpus(2).vram(20 * GIB).pending());

        assertEquals(NodeKind.NO_ROOM, verdict(why, "gpu-a").kind());
        assertEquals(1, verdict(why, "gpu-a").fitting());
        assertEquals("only 1 GPU with room now; the job needs 2", verdict(why, "gpu-a").message());
        assertEquals(List.of(BlockerKind.NO_ROOM), kinds(why));
    }

    @Test
    void aJobLargerThanEveryGpuCanNeverFit() {
        Explanation why = explain(List.of(node("gpu-a", gpu(0, 80 * GIB))), 1, job(1).vram(90 * GIB).pending());

        assertEquals(Outcome.NEVER, why.outcome());
        assertEquals(GpuKind.TOO_SMALL, gpuOf(why, "gpu-a", 0).kind());
        assertEquals("too small: holds at most 81408 MiB", gpuOf(why, "gpu-a", 0).message());
        assertEquals("nowhere: no GPU can hold 92160 MiB: the largest, gpu-a GPU0, has 81920 MiB, 81408 MiB after the "
                + "512 MiB headroom", why.fit().message());
    }

    @Test
    void aJobThatFitsStartsNowOnTheSchedulersChoice() {
        Explanation why = explain(List.of(node("gpu-a", gpuWithForeign(0, 80 * GIB, 10 * GIB), gpu(1, 80 * GIB))), 1,
                job(1).vram(20 * GIB).pending());

        assertEquals(Outcome.STARTS, why.outcome());
        assertNull(why.reason());
        assertEquals(List.of(), why.blockers());
        assertEquals(FitKind.NOW, why.fit().kind());
        assertEquals(List.of(1), why.fit().gpuIndices());
        assertEquals(NodeKind.FITS, verdict(why, "gpu-a").kind());
        assertTrue(gpuOf(why, "gpu-a", 1).message().endsWith("(first choice)"));
    }

    @Test
    void memoryPlacedEarlierInTheSamePlanIsShownAsPlanned() {
        Job first = job(1).vram(60 * GIB).pending();
        Job second = job(2).vram(30 * GIB).pending();
        Explanation why = explain(List.of(node("gpu-a", gpu(0, 80 * GIB))), 2, first, second);

        GpuVerdict only = gpuOf(why, "gpu-a", 0);
        assertEquals(60 * GIB, only.plannedMb());
        assertEquals(20 * GIB - 512, only.freeMb());
        assertEquals(GpuKind.SHORT, only.kind());
    }

    @Test
    void cpuJobsCountSlotsPerNode() {
        Job cpu = job(9).gpus(0).pending();
        Job[] running = {job(1).gpus(0).running("gpu-a"), job(2).gpus(0).running("gpu-a"),
                job(3).gpus(0).running("gpu-a"), job(4).gpus(0).running("gpu-a")};
        Explanation why = explain(List.of(node("gpu-a", gpu(0, 80 * GIB))), 9, running[0], running[1], running[2],
                running[3], cpu);

        assertEquals(List.of(BlockerKind.CPU_SLOTS_FULL), kinds(why));
        assertEquals(NodeKind.CPU_SLOTS_FULL, verdict(why, "gpu-a").kind());
        assertEquals(4, verdict(why, "gpu-a").cpuJobs());
    }
}
