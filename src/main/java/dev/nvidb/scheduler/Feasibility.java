package dev.nvidb.scheduler;

import dev.nvidb.model.JobSpec;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides, from GPU sizes alone, whether a job could ever run: "never" is only said when every
 * node the job may use has a known inventory (this tick's, or the last known one of a node that
 * is not answering) and no node has enough allowlisted GPUs large enough. Drained and silent
 * nodes count, since both states are temporary; a GPU of unknown size could be large enough.
 */
final class Feasibility {

    private final long headroomMb;
    /** Sizes do not change during a plan, so each demand's feasible nodes are computed once… */
    private final Map<Demand, List<ClusterNode>> feasibleByDemand = new HashMap<>();
    /** …and so is the reason a demand can never run (a demand names its node, so its candidates too). */
    private final Map<Demand, Optional<String>> neverByDemand = new HashMap<>();

    Feasibility(SchedulingPolicy policy) {
        this.headroomMb = policy.headroomMb();
    }

    /** The nodes among {@code candidates} that could ever hold the job (all of them for CPU-only jobs). */
    List<ClusterNode> feasible(JobSpec spec, List<ClusterNode> candidates) {
        if (spec.cpuOnly()) {
            return candidates;
        }
        return feasibleByDemand.computeIfAbsent(Demand.of(spec), demand -> candidates.stream()
                .filter(node -> node.fit(demand.gpus(), demand.vramMb(), headroomMb) != ClusterNode.Fit.NO).toList());
    }

    /** Why no known GPU could ever hold the job, or empty when it could (or nobody can tell yet). */
    Optional<String> neverReason(JobSpec spec, List<ClusterNode> candidates) {
        if (spec.cpuOnly() || candidates.isEmpty() || !feasible(spec, candidates).isEmpty()) {
            return Optional.empty();
        }
        return neverByDemand.computeIfAbsent(Demand.of(spec), demand ->
                Optional.of(spec.node() != null ? onNode(spec, candidates.get(0)) : inCluster(spec, candidates)));
    }

    private String onNode(JobSpec spec, ClusterNode node) {
        List<GpuSlot> offered = node.offered();
        if (node.slots.isEmpty()) {
            return "node " + node.name() + " has no GPUs";
        }
        if (offered.isEmpty()) {
            return "no GPU open to the queue on " + node.name() + " (gpus: " + node.capacity.gpuAllowlist() + ")";
        }
        if (offered.size() < spec.gpus()) {
            return "node " + node.name() + " offers " + gpus(offered.size()) + " to the queue"
                    + allowlist(node) + "; the job needs " + spec.gpus();
        }
        if (spec.gpus() == 1) {
            GpuSlot largest = largest(offered);
            return "no GPU on " + node.name() + " can hold " + spec.vramMb() + " MiB: the largest has "
                    + largest.gpu.totalMb() + " MiB" + afterHeadroom(largest);
        }
        return "node " + node.name() + " has " + gpus(capable(node, spec)) + " large enough for " + spec.vramMb()
                + " MiB" + headroomNote() + "; the job needs " + spec.gpus();
    }

    private String inCluster(JobSpec spec, List<ClusterNode> nodes) {
        ClusterNode widest = nodes.stream().max(Comparator.comparingInt((ClusterNode node) -> node.offered().size())
                .thenComparing(node -> -node.order)).orElseThrow();
        int most = widest.offered().size();
        if (most == 0) {
            return "no node offers a GPU to the queue";
        }
        if (most < spec.gpus()) {
            return "needs " + spec.gpus() + " GPUs on one node; the most any node offers the queue is "
                    + most + " (" + widest.name() + ")";
        }
        if (spec.gpus() == 1) {
            GpuSlot largest = largest(nodes.stream().flatMap(node -> node.offered().stream()).toList());
            return "no GPU can hold " + spec.vramMb() + " MiB: the largest, " + largest.label() + ", has "
                    + largest.gpu.totalMb() + " MiB" + afterHeadroom(largest);
        }
        ClusterNode best = nodes.stream().max(Comparator.comparingInt((ClusterNode node) -> capable(node, spec))
                .thenComparing(node -> -node.order)).orElseThrow();
        return "no node has " + spec.gpus() + " GPUs that can each hold " + spec.vramMb() + " MiB" + headroomNote()
                + " (most: " + best.name() + " has " + capable(best, spec) + ")";
    }

    private int capable(ClusterNode node, JobSpec spec) {
        return (int) node.offered().stream().filter(slot -> slot.couldEverHold(spec.vramMb(), headroomMb)).count();
    }

    private static GpuSlot largest(List<GpuSlot> slots) {
        return slots.stream().filter(slot -> slot.gpu.totalMb() != null)
                .max(Comparator.comparingLong((GpuSlot slot) -> slot.gpu.totalMb())
                        .thenComparing(slot -> -slot.node.order).thenComparing(slot -> -slot.gpu.index()))
                .orElseThrow();
    }

    private String afterHeadroom(GpuSlot slot) {
        return headroomMb == 0 ? "" : ", " + (slot.gpu.totalMb() - headroomMb) + " MiB after the "
                + headroomMb + " MiB headroom";
    }

    private String headroomNote() {
        return headroomMb == 0 ? "" : " after the " + headroomMb + " MiB headroom";
    }

    private static String allowlist(ClusterNode node) {
        return node.capacity.gpuAllowlist() == null ? "" : " (gpus: " + node.capacity.gpuAllowlist() + ")";
    }

    static String gpus(int count) {
        return count + (count == 1 ? " GPU" : " GPUs");
    }
}
