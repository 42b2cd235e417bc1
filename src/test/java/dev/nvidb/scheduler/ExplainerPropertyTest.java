package dev.nvidb.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import dev.nvidb.model.JobStatus;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code job why} and the scheduler cannot disagree: over many random ticks, for every pending
 * job, the explanation's outcome and reason are the plan's, and where it "would start" is exactly
 * where the plan places it once its hold and dependencies are lifted (and nowhere when the plan
 * does not place it then).
 */
class ExplainerPropertyTest {

    static LongStream seeds() {
        return LongStream.range(0, 300);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void wouldStartIsWhereThePlanPlacesTheUnblockedJob(long seed) {
        RandomTick tick = new RandomTick(seed, 5, 4, 12);
        QueueSnapshot queue = new QueueSnapshot(tick.pending, tick.running, tick.others);
        Plan real = Scheduler.plan(queue, tick.nodes, tick.policy, Fixtures.NOW);
        for (Job job : tick.pending) {
            Explanation why = Explainer.explain(queue, tick.nodes, tick.policy, Fixtures.NOW, job.id(), List.of());
            assertEquals(real.findPlacement(job.id()).isPresent(), why.outcome() == Explanation.Outcome.STARTS);
            assertEquals(Optional.ofNullable(reasonOf(real, job.id())), Optional.ofNullable(why.reason()));

            Job lifted = job.withStatus(JobStatus.PENDING).withSpec(withoutDependencies(job.spec()));
            List<Job> pending = tick.pending.stream().map(other -> other.id() == job.id() ? lifted : other).toList();
            Plan unblocked = Scheduler.plan(new QueueSnapshot(pending, tick.running, tick.others), tick.nodes,
                    tick.policy, Fixtures.NOW);
            Optional<Placement> placed = unblocked.findPlacement(job.id());
            String context = "seed " + seed + ", job " + job.id() + ": " + why.fit();
            assertEquals(placed.isPresent(), why.fit().kind() == Explanation.FitKind.NOW, context);
            placed.ifPresent(placement -> {
                assertEquals(placement.node(), why.fit().node(), context);
                assertEquals(placement.gpuIndices(), why.fit().gpuIndices(), context);
            });
            if (why.fit().kind() == Explanation.FitKind.NEVER) {
                assertTrue(unblocked.unschedulable().containsKey(job.id()), context);
            }
            for (Explanation.NodeVerdict node : why.nodes()) {
                if (node.kind() == Explanation.NodeKind.FITS && !job.spec().cpuOnly()) {
                    assertTrue(node.fitting() >= job.spec().gpus(), context);
                }
            }
            if (why.outcome() != Explanation.Outcome.STARTS) {
                assertTrue(!why.blockers().isEmpty(), "a job that does not start has a blocker: " + context);
            }
        }
    }

    private static String reasonOf(Plan plan, long id) {
        return plan.findPendingReason(id).orElse(plan.unschedulable().getOrDefault(id, plan.dependencyFailed().get(id)));
    }

    private static JobSpec withoutDependencies(JobSpec spec) {
        return spec.withDependencies(List.of());
    }
}
