package dev.nvidb.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Invariants over many random ticks (fixed seeds, so a failure names a reproducible case): the
 * plan decides every pending job exactly once, never over-commits a GPU, keeps multi-GPU jobs
 * on one node, never places on a GPU or node it must not, and calls "never" only when true.
 */
class SchedulerPropertyTest {

    static LongStream seeds() {
        return LongStream.range(0, 400);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void planKeepsItsInvariants(long seed) {
        RandomTick tick = new RandomTick(seed, 5, 4, 30);
        Plan plan = tick.plan();
        Map<Long, Job> pending = new HashMap<>();
        tick.pending.forEach(job -> pending.put(job.id(), job));

        everyPendingJobIsDecidedOnce(plan, pending.keySet());
        Map<String, NodeCapacity> nodes = new HashMap<>();
        tick.nodes.forEach(node -> nodes.put(node.name(), node));
        Map<String, Long> placedMb = new HashMap<>();
        Map<String, Integer> placedJobs = new HashMap<>();
        Map<String, Integer> placedCpu = new HashMap<>();
        for (Placement placement : plan.placements()) {
            Job job = pending.get(placement.jobId());
            placementIsAllowed(placement, job, nodes.get(placement.node()));
            if (job.spec().cpuOnly()) {
                placedCpu.merge(placement.node(), 1, Integer::sum);
            }
            for (int index : placement.gpuIndices()) {
                placedMb.merge(placement.node() + "/" + index, job.spec().vramMb(), Long::sum);
                placedJobs.merge(placement.node() + "/" + index, 1, Integer::sum);
            }
        }
        noGpuIsOverBudgetOrOverItsJobLimit(tick, placedMb, placedJobs);
        cpuJobsStayWithinTheirLimit(tick, placedCpu);
        neverIsSaidOnlyWhenTrue(tick, plan, nodes);
        noEarlierIdenticalJobWaitsForCapacity(tick, plan);
        exclusiveJobsHaveTheirGpusToThemselves(tick, plan, nodes);
        assertEquals(plan, shuffled(tick, seed).plan(), "same input, same plan");
    }

    private static void everyPendingJobIsDecidedOnce(Plan plan, Set<Long> pending) {
        List<Long> decided = new ArrayList<>();
        plan.placements().forEach(placement -> decided.add(placement.jobId()));
        decided.addAll(plan.pendingReasons().keySet());
        decided.addAll(plan.unschedulable().keySet());
        decided.addAll(plan.dependencyFailed().keySet());
        assertEquals(pending.size(), decided.size(), "each pending job is decided exactly once: " + decided);
        assertEquals(pending, new HashSet<>(decided));
        plan.pendingReasons().values().forEach(reason -> assertFalse(reason.isBlank()));
        plan.unschedulable().values().forEach(reason -> assertFalse(reason.isBlank()));
    }

    private static void placementIsAllowed(Placement placement, Job job, NodeCapacity node) {
        JobSpec spec = job.spec();
        assertFalse(job.held(), "held job " + job.id() + " placed");
        assertTrue(node.takesJobs(), "job " + job.id() + " placed on " + node.name() + " which takes no jobs");
        assertTrue(spec.node() == null || spec.node().equals(node.name()), "--node ignored for job " + job.id());
        assertEquals(spec.gpus(), new HashSet<>(placement.gpuIndices()).size(), "job " + job.id() + " got the wrong GPU count");
        for (int i = 0; i < placement.gpuIndices().size(); i++) {
            int index = placement.gpuIndices().get(i);
            GpuCapacity gpu = node.gpus().stream().filter(g -> g.index() == index).findFirst().orElseThrow();
            assertTrue(gpu.state().known(), "job " + job.id() + " placed on a GPU of unknown state");
            assertTrue(node.allows(index), "job " + job.id() + " placed on a GPU outside the allowlist");
            assertEquals(gpu.uuid(), placement.gpuUuids().get(i));
        }
    }

    /** The budget recomputed here from the raw figures, independently of {@link GpuBudget}. */
    private static void noGpuIsOverBudgetOrOverItsJobLimit(RandomTick tick, Map<String, Long> placedMb,
                                                          Map<String, Integer> placedJobs) {
        for (NodeCapacity node : tick.nodes) {
            for (GpuCapacity gpu : node.gpus()) {
                String key = node.name() + "/" + gpu.index();
                if (!placedMb.containsKey(key)) {
                    continue;
                }
                long reserved = 0;
                long charged = 0;
                int jobs = 0;
                for (Job job : tick.running) {
                    if (job.assignment().node().equals(node.name()) && job.assignment().gpuIds().contains(gpu.index())) {
                        long use = gpu.jobUseMb().getOrDefault(job.id(), 0L);
                        reserved += job.spec().vramMb();
                        charged += Math.max(job.spec().vramMb(), use);
                        jobs++;
                    }
                }
                long measured = gpu.jobUseMb().values().stream().mapToLong(Long::longValue).sum();
                long taken = gpu.state() == GpuState.BLIND ? Math.max(gpu.usedMb(), reserved)
                        : Math.max(gpu.externalMb(), gpu.usedMb() - measured) + charged;
                long free = gpu.totalMb() - taken - tick.policy.headroomMb();
                assertTrue(free - placedMb.get(key) >= 0, key + " over budget: free " + free + ", placed " + placedMb.get(key));
                int max = tick.policy.maxJobsPerGpu();
                assertTrue(max == 0 || jobs + placedJobs.get(key) <= max, key + " over max_jobs_per_gpu");
            }
        }
    }

    private static void cpuJobsStayWithinTheirLimit(RandomTick tick, Map<String, Integer> placedCpu) {
        int max = tick.policy.maxCpuJobsPerNode();
        placedCpu.forEach((node, placed) -> {
            long running = tick.running.stream()
                    .filter(job -> job.spec().cpuOnly() && job.assignment().node().equals(node)).count();
            assertTrue(max == 0 || running + placed <= max, node + " over max_cpu_jobs_per_node");
        });
    }

    private static void neverIsSaidOnlyWhenTrue(RandomTick tick, Plan plan, Map<String, NodeCapacity> nodes) {
        for (Job job : tick.pending) {
            boolean never = never(job.spec(), tick.nodes, nodes, tick.policy.headroomMb());
            if (plan.unschedulable().containsKey(job.id())) {
                assertTrue(never, "job " + job.id() + " called unschedulable but could run: " + plan.unschedulable().get(job.id()));
            } else if (never && !job.held()) {
                assertTrue(plan.dependencyFailed().containsKey(job.id()), "job " + job.id() + " can never run but waits");
            }
        }
    }

    private static boolean never(JobSpec spec, List<NodeCapacity> all, Map<String, NodeCapacity> byName, long headroom) {
        if (spec.cpuOnly()) {
            return false;
        }
        List<NodeCapacity> candidates = spec.node() == null ? all
                : byName.containsKey(spec.node()) ? List.of(byName.get(spec.node())) : List.of();
        if (candidates.isEmpty()) {
            return false;
        }
        for (NodeCapacity node : candidates) {
            if (node.status() == NodeStatus.NEVER_ANSWERED) {
                return false;
            }
            long possible = node.gpus().stream().filter(gpu -> node.allows(gpu.index()))
                    .filter(gpu -> gpu.totalMb() == null || gpu.totalMb() - headroom >= spec.vramMb()).count();
            if (possible >= spec.gpus()) {
                return false;
            }
        }
        return true;
    }

    /** A placed job never passes an earlier-ranked, ready job that asks for exactly the same. */
    private static void noEarlierIdenticalJobWaitsForCapacity(RandomTick tick, Plan plan) {
        for (Placement placement : plan.placements()) {
            Job placed = tick.pending.stream().filter(job -> job.id() == placement.jobId()).findFirst().orElseThrow();
            for (Job earlier : tick.pending) {
                boolean ranksFirst = Scheduler.ORDER.compare(earlier, placed) < 0;
                boolean same = earlier.spec().gpus() == placed.spec().gpus() && earlier.spec().vramMb() == placed.spec().vramMb()
                        && java.util.Objects.equals(earlier.spec().node(), placed.spec().node())
                        && earlier.spec().policy().exclusive() == placed.spec().policy().exclusive();
                boolean ready = !earlier.held() && earlier.spec().dependencies().isEmpty();
                if (ranksFirst && same && ready) {
                    assertTrue(plan.findPlacement(earlier.id()).isPresent(),
                            "job " + placed.id() + " passed job " + earlier.id() + ": " + plan.findPendingReason(earlier.id()));
                }
            }
        }
    }

    /**
     * An exclusive job is placed only on GPUs where nothing runs (no queue job, no foreign memory),
     * nothing else is placed beside it in the same plan, and no job is placed on a GPU an exclusive
     * job runs on.
     */
    private static void exclusiveJobsHaveTheirGpusToThemselves(RandomTick tick, Plan plan,
                                                               Map<String, NodeCapacity> nodes) {
        Map<String, Integer> placedOn = new HashMap<>();
        plan.placements().forEach(placement -> placement.gpuIndices()
                .forEach(index -> placedOn.merge(placement.node() + "/" + index, 1, Integer::sum)));
        for (Placement placement : plan.placements()) {
            Job job = tick.pending.stream().filter(j -> j.id() == placement.jobId()).findFirst().orElseThrow();
            for (int index : placement.gpuIndices()) {
                String key = placement.node() + "/" + index;
                for (Job running : tick.running) {
                    boolean here = running.assignment().node().equals(placement.node())
                            && running.assignment().gpuIds().contains(index);
                    assertFalse(here && running.spec().policy().exclusive(),
                            "job " + job.id() + " placed on " + key + " beside exclusive job " + running.id());
                    assertFalse(here && job.spec().policy().exclusive(),
                            "exclusive job " + job.id() + " placed on " + key + " beside job " + running.id());
                }
                if (job.spec().policy().exclusive()) {
                    GpuCapacity gpu = nodes.get(placement.node()).gpus().stream().filter(g -> g.index() == index)
                            .findFirst().orElseThrow();
                    assertTrue(gpu.jobUseMb().isEmpty() && (gpu.state() == GpuState.BLIND
                            ? gpu.usedMb() == 0 || gpu.externalMb() == 0 && gpu.usedMb() == 0 : gpu.externalMb() == 0),
                            "exclusive job " + job.id() + " placed on " + key + " which is in use: " + gpu);
                    assertEquals(1, placedOn.get(key), "exclusive job " + job.id() + " shares " + key + " in the plan");
                }
            }
        }
    }

    private static RandomTick shuffled(RandomTick tick, long seed) {
        RandomTick copy = new RandomTick(seed, 5, 4, 30);
        Collections.shuffle(copy.pending, new java.util.Random(seed + 1));
        Collections.shuffle(copy.running, new java.util.Random(seed + 2));
        return copy;
    }
}
