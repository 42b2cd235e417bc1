package dev.nvidb.scheduler;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Chooses GPUs for a job: one node, {@code gpus} GPUs that each fit. Spread takes the
 * emptiest fitting GPUs (and, for several GPUs, the node whose chosen set has the most
 * free memory); pack takes the fullest that still fit. Ties go to the earlier node in
 * the input, then the lower GPU index, so the same input always gives the same choice.
 */
final class GpuPicker {

    private final SchedulingPolicy policy;
    /** GPUs that take jobs this tick, and how many of them are kept for blocked jobs so far. */
    private final int targets;
    private int kept;
    private long[] scratch = new long[8];
    /**
     * GPUs with a free job slot first, then the most free memory, then the lower index. The
     * comparators are written out rather than composed: a plan sorts with them thousands of times,
     * and the CLI's JVM (C1 only) does not inline a chain of comparator lambdas.
     */
    private final Comparator<GpuSlot> closestFirst;
    /** The least free memory first, then the lower index. */
    private static final Comparator<GpuSlot> FULLEST_FIRST = (a, b) -> {
        int byFree = Long.compare(a.freeMb, b.freeMb);
        return byFree != 0 ? byFree : Integer.compare(a.gpu.index(), b.gpu.index());
    };
    /** The most free memory first, then the lower index. */
    private static final Comparator<GpuSlot> EMPTIEST_FIRST = (a, b) -> {
        int byFree = Long.compare(b.freeMb, a.freeMb);
        return byFree != 0 ? byFree : Integer.compare(a.gpu.index(), b.gpu.index());
    };

    GpuPicker(SchedulingPolicy policy, int targets) {
        this.policy = policy;
        this.targets = targets;
        int maxJobsPerGpu = policy.maxJobsPerGpu();
        this.closestFirst = (a, b) -> {
            int bySlot = Boolean.compare(!a.hasJobSlot(maxJobsPerGpu), !b.hasJobSlot(maxJobsPerGpu));
            return bySlot != 0 ? bySlot : EMPTIEST_FIRST.compare(a, b);
        };
    }

    /** How many GPUs are kept for blocked jobs so far (only grows during a plan). */
    int keptCount() {
        return kept;
    }

    /** The GPUs to give the job now, or empty when none fit; {@code respectKept} honours GPUs kept for earlier jobs. */
    Optional<List<GpuSlot>> pick(JobSpec spec, List<ClusterNode> nodes, boolean respectKept) {
        if (spec.gpus() == 1) {
            return pickOne(spec, nodes, respectKept).map(List::of);
        }
        int count = spec.gpus();
        ClusterNode bestNode = null;
        long bestFree = 0;
        for (ClusterNode node : nodes) {
            if (node.slots.size() < count || node.maxTargetFreeMb < spec.vramMb() || !node.roomFor(spec)) {
                continue;
            }
            // A node's set is the first `count` of its fitting GPUs in preferred order; only its
            // free total is compared, and that is the sum of the `count` largest (spread) or
            // smallest (pack) free figures, whatever the ties: the set is built for the winner only.
            long[] free = scratch(node.slots.size());
            int fitting = 0;
            for (GpuSlot slot : node.slots) {
                if (fits(slot, spec, respectKept)) {
                    free[fitting++] = slot.freeMb;
                }
            }
            if (fitting < count) {
                continue;
            }
            Arrays.sort(free, 0, fitting);
            long total = 0;
            for (int i = 0; i < count; i++) {
                total += policy.placement() == PlacementMode.PACK ? free[i] : free[fitting - 1 - i];
            }
            if (bestNode == null || better(total, bestFree)) {
                bestNode = node;
                bestFree = total;
            }
        }
        if (bestNode == null) {
            return Optional.empty();
        }
        List<GpuSlot> fitting = new ArrayList<>(bestNode.slots.size());
        for (GpuSlot slot : bestNode.slots) {
            if (fits(slot, spec, respectKept)) {
                fitting.add(slot);
            }
        }
        return Optional.of(byIndex(preferred(fitting, count)));
    }

    private boolean fits(GpuSlot slot, JobSpec spec, boolean respectKept) {
        return slot.fits(spec.vramMb(), policy.maxJobsPerGpu(), respectKept, spec.policy().exclusive());
    }

    /** A scratch array of at least {@code size} free figures, reused across picks. */
    private long[] scratch(int size) {
        if (scratch.length < size) {
            scratch = new long[size];
        }
        return scratch;
    }

    /** The one-GPU case without building per-node lists: the common job, kept cheap for big queues. */
    private Optional<GpuSlot> pickOne(JobSpec spec, List<ClusterNode> nodes, boolean respectKept) {
        long vramMb = spec.vramMb();
        boolean exclusive = spec.policy().exclusive();
        GpuSlot best = null;
        for (ClusterNode node : nodes) {
            if (node.maxTargetFreeMb < vramMb || !node.roomFor(spec)) {
                continue; // no GPU here has room (or the node's policy leaves the user none): skip its slots
            }
            for (GpuSlot slot : node.slots) {
                if (slot.fits(vramMb, policy.maxJobsPerGpu(), respectKept, exclusive)
                        && (best == null || better(slot.freeMb, best.freeMb))) {
                    best = slot;
                }
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * Keeps GPUs for a job that fits nowhere now, so later (lower-ranked) jobs cannot take
     * the memory it is waiting for: on the node with the most open GPUs large enough for it
     * (up to the number it needs; then the most free memory), the GPUs closest to fitting it.
     * GPUs too small for it ever, and GPUs already kept for an earlier job, are left alone.
     */
    void keep(Job job, List<ClusterNode> nodes) {
        if (kept == targets) {
            return; // every GPU is already kept: nothing left to protect
        }
        JobSpec spec = job.spec();
        List<GpuSlot> best = List.of();
        long bestFree = Long.MIN_VALUE;
        for (ClusterNode node : nodes) {
            if (!node.roomFor(spec)) {
                continue; // capped there: keeping GPUs for it would only idle them
            }
            List<GpuSlot> open = new ArrayList<>();
            for (GpuSlot slot : node.slots) {
                if (slot.target && slot.keptFor == null && slot.couldEverHold(spec.vramMb(), policy.headroomMb())) {
                    open.add(slot);
                }
            }
            if (open.isEmpty() || open.size() < best.size()) {
                continue;
            }
            open.sort(closestFirst);
            List<GpuSlot> chosen = open.subList(0, Math.min(spec.gpus(), open.size()));
            long free = chosen.stream().mapToLong(slot -> slot.freeMb).sum();
            if (chosen.size() > best.size() || chosen.size() == best.size() && free > bestFree) {
                best = chosen;
                bestFree = free;
            }
        }
        best.forEach(slot -> slot.keptFor = job);
        kept += best.size();
    }

    /** Gives back the GPUs kept for {@code job} (it went to a Slurm node instead of waiting here). */
    void release(Job job, List<ClusterNode> nodes) {
        for (ClusterNode node : nodes) {
            for (GpuSlot slot : node.slots) {
                if (slot.keptFor == job) {
                    slot.keptFor = null;
                    kept--;
                }
            }
        }
    }

    private List<GpuSlot> preferred(List<GpuSlot> fitting, int count) {
        fitting.sort(policy.placement() == PlacementMode.PACK ? FULLEST_FIRST : EMPTIEST_FIRST);
        return List.copyOf(fitting.subList(0, count));
    }

    private boolean better(long free, long bestFree) {
        return policy.placement() == PlacementMode.PACK ? free < bestFree : free > bestFree;
    }


    private static List<GpuSlot> byIndex(List<GpuSlot> slots) {
        return slots.stream().sorted(Comparator.comparingInt(slot -> slot.gpu.index())).toList();
    }
}
