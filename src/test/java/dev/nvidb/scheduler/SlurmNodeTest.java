package dev.nvidb.scheduler;

import static dev.nvidb.scheduler.Fixtures.GIB;
import static dev.nvidb.scheduler.Fixtures.gpu;
import static dev.nvidb.scheduler.Fixtures.job;
import static dev.nvidb.scheduler.Fixtures.node;
import static dev.nvidb.scheduler.Fixtures.outcome;
import static dev.nvidb.scheduler.Fixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A Slurm cluster as a node: Slurm owns its budget, so it is never charged and never a target unless
 * the job names it or the queue lets jobs the workstations cannot place now overflow to it.
 */
class SlurmNodeTest {

    private static final NodeCapacity WORKSTATION = node("ws", gpu(0, 24 * GIB));
    private static final NodeCapacity CLUSTER = NodeCapacity.slurm("cluster", true);
    private static final NodeCapacity CLUSTER_DOWN = NodeCapacity.slurm("cluster", false);
    private static final SchedulingPolicy OVERFLOW = SchedulingPolicy.defaults().withSlurmOverflow(true);
    private static final SchedulingPolicy NO_OVERFLOW = SchedulingPolicy.defaults();

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("a job that fits the workstation runs there", OVERFLOW, List.of(WORKSTATION, CLUSTER),
                        job(1).gpus(1), "ws:0"),
                Arguments.of("without overflow a job never goes to Slurm unasked", NO_OVERFLOW,
                        List.of(WORKSTATION, CLUSTER), job(1).gpus(2),
                        "unschedulable: needs 2 GPUs on one node; the most any node offers the queue is 1 (ws)"),
                Arguments.of("a job no workstation can ever hold overflows to Slurm", OVERFLOW,
                        List.of(WORKSTATION, CLUSTER), job(1).gpus(2), "cluster:cpu"),
                Arguments.of("--allow-slurm overflows one job without the queue setting", NO_OVERFLOW,
                        List.of(WORKSTATION, CLUSTER), job(1).gpus(2).allowSlurm(), "cluster:cpu"),
                Arguments.of("a job naming the cluster goes there whatever the workstations have", NO_OVERFLOW,
                        List.of(WORKSTATION, CLUSTER), job(1).gpus(1).node("cluster"), "cluster:cpu"),
                Arguments.of("a job naming a cluster whose controller is silent waits", NO_OVERFLOW,
                        List.of(WORKSTATION, CLUSTER_DOWN), job(1).node("cluster"),
                        "Slurm node cluster is not answering (its login node or Slurm's controller)"),
                Arguments.of("a job no workstation can hold waits for a silent cluster instead of failing", OVERFLOW,
                        List.of(WORKSTATION, CLUSTER_DOWN), job(1).gpus(2),
                        "Slurm node cluster is not answering (its login node or Slurm's controller)"),
                Arguments.of("a CPU job with only a cluster goes to Slurm", OVERFLOW, List.of(CLUSTER), job(1),
                        "cluster:cpu"),
                Arguments.of("a job waiting for dependencies is not handed to Slurm", OVERFLOW,
                        List.of(WORKSTATION, CLUSTER), job(1).node("cluster").after(7),
                        "dependency 7 not finished (running)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(String what, SchedulingPolicy policy, List<NodeCapacity> nodes, Fixtures.JobBuilder job,
                 String expected) {
        Plan plan = plan(policy, nodes, List.of(job.pending()), java.util.Map.of(7L, dev.nvidb.model.JobState.RUNNING));
        assertEquals(expected, outcome(plan, 1));
    }

    static Stream<Arguments> explained() {
        return Stream.of(
                Arguments.of("overflowing now", OVERFLOW, List.of(WORKSTATION, CLUSTER), job(1).gpus(2),
                        Explanation.Outcome.STARTS, null),
                Arguments.of("naming a silent cluster", NO_OVERFLOW, List.of(WORKSTATION, CLUSTER_DOWN),
                        job(1).gpus(1).node("cluster"), Explanation.Outcome.WAITS,
                        "Slurm node cluster is not answering (its login node or Slurm's controller)"),
                Arguments.of("waiting for a silent cluster to overflow to", OVERFLOW, List.of(WORKSTATION, CLUSTER_DOWN),
                        job(1).gpus(2), Explanation.Outcome.WAITS,
                        "Slurm node cluster is not answering (its login node or Slurm's controller)"));
    }

    /** {@code job why} replays the plan, Slurm's part included: the same outcome and reason. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("explained")
    void jobWhySaysWhatThePlanDoes(String what, SchedulingPolicy policy, List<NodeCapacity> nodes,
                                   Fixtures.JobBuilder job, Explanation.Outcome outcome, String reason) {
        Explanation explanation = Explainer.explain(new QueueSnapshot(List.of(job.pending()), List.of(),
                java.util.Map.of()), nodes, policy, Fixtures.NOW, 1, List.of());
        assertEquals(outcome, explanation.outcome());
        assertEquals(reason, explanation.reason());
    }

    @org.junit.jupiter.api.Test
    void aJobTheWorkstationIsTooFullForNowOverflowsAndTheNextOneThatFitsStaysHome() {
        Plan plan = plan(OVERFLOW, List.of(WORKSTATION, CLUSTER), List.of(job(1).gpus(1).vram(20 * GIB).pending(),
                job(2).gpus(1).vram(20 * GIB).pending(), job(3).gpus(1).vram(1 * GIB).pending()), java.util.Map.of());
        assertEquals("ws:0", outcome(plan, 1));
        assertEquals("cluster:cpu", outcome(plan, 2));
        assertEquals("ws:0", outcome(plan, 3));
    }
}
