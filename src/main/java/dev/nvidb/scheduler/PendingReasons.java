package dev.nvidb.scheduler;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The sentences that say why a pending job was not placed: short, specific, and naming the
 * node, GPU or job a user can act on ("waiting for 20480 MiB on 1 GPU (best: gpu-a GPU1 has
 * 11264 MiB free)").
 */
final class PendingReasons {

    private static final int NAMED_NODES = 3;

    private final SchedulingPolicy policy;

    PendingReasons(SchedulingPolicy policy) {
        this.policy = policy;
    }

    /** A job of an array whose cap is reached. */
    static String groupCap(String group, int running, int cap) {
        return "group " + group + " has " + running + " of " + cap + " jobs running (its array's cap)";
    }

    static String held(Job job) {
        return "held: " + job.holdReason();
    }

    static String notAQueueNode(String name) {
        return "node " + name + " is not a queue node (not configured, or ignored)";
    }

    /** A Slurm node that does not take jobs now: its controller did not answer, or it is drained. */
    static String slurmUnavailable(NodeCapacity node) {
        return "Slurm node " + node.name() + (node.drained() ? " is drained"
                : " is not answering (its login node or Slurm's controller)");
    }

    static String noNodes() {
        return "no queue nodes are configured";
    }

    /** None of {@code nodes} takes jobs now: they are drained or not answering. */
    static String unavailable(List<ClusterNode> nodes) {
        if (nodes.size() == 1) {
            return "node " + nodes.get(0).name() + " is " + whyNot(nodes.get(0));
        }
        return "no node that could run it takes jobs now: " + named(nodes);
    }

    /** A GPU job fits on no node that takes jobs; {@code elsewhere}: nodes that could hold it but take none now. */
    String gpuWait(JobSpec spec, List<ClusterNode> usable, List<ClusterNode> elsewhere) {
        List<ClusterNode> capped = usable.stream().filter(node -> !node.roomFor(spec)).toList();
        if (!capped.isEmpty()) {
            String caps = String.join("; ", capped.stream().map(node -> node.name() + ": "
                    + node.capacity.room().who()).toList());
            List<ClusterNode> open = usable.stream().filter(node -> node.roomFor(spec)).toList();
            if (open.isEmpty()) {
                String others = elsewhere.isEmpty() ? "" : "; " + named(elsewhere);
                return "waiting for room under the node policy (" + caps + others + ")";
            }
            return gpuWait(spec, open, elsewhere) + "; " + caps;
        }
        Optional<String> exclusive = spec.policy().exclusive() ? noEmptyGpu(spec, usable) : heldExclusively(spec, usable);
        if (exclusive.isPresent()) {
            return exclusive.get();
        }
        String detail = spec.gpus() == 1 ? oneGpuDetail(spec, usable) : multiGpuDetail(spec, usable);
        String others = elsewhere.isEmpty() ? "" : "; " + named(elsewhere);
        return "waiting for " + need(spec) + " (" + detail + holds(usable, detail) + others + ")";
    }

    /**
     * An {@code --exclusive} job that found too few GPUs with no process at all among those that could
     * hold it: {@code waiting for a GPU with no process at all (…)}; empty when enough are empty (it
     * then waits for memory or a job slot, said the usual way).
     */
    private Optional<String> noEmptyGpu(JobSpec spec, List<ClusterNode> usable) {
        List<GpuSlot> capable = capable(spec, usable);
        if (capable.isEmpty()) {
            return Optional.empty();
        }
        int best = 0;
        for (ClusterNode node : usable) {
            best = Math.max(best, (int) node.slots.stream()
                    .filter(slot -> slot.target && slot.empty() && slot.couldEverHold(spec.vramMb(), policy.headroomMb()))
                    .count());
        }
        if (best >= spec.gpus()) {
            return Optional.empty();
        }
        long inUse = capable.stream().filter(slot -> !slot.empty()).count();
        String what = spec.gpus() == 1 ? "a GPU" : spec.gpus() + " GPUs on one node";
        return Optional.of("waiting for " + what + " with no process at all (--exclusive; " + inUse + " of "
                + capable.size() + " GPU" + (capable.size() == 1 ? "" : "s") + " that could hold it "
                + (inUse == 1 ? "is" : "are") + " in use)");
    }

    /**
     * A job that would fit on a GPU but for the {@code --exclusive} job running there:
     * {@code GPU 1 of gpu-a is held exclusively by job 7}; empty when none.
     */
    private Optional<String> heldExclusively(JobSpec spec, List<ClusterNode> usable) {
        for (ClusterNode node : usable) {
            for (GpuSlot slot : node.slots) {
                if (slot.exclusiveFor != null && slot.target && slot.freeMb >= spec.vramMb()
                        && slot.hasJobSlot(policy.maxJobsPerGpu())) {
                    return Optional.of("GPU " + slot.gpu.index() + " of " + node.name() + " is held exclusively by job "
                            + slot.exclusiveFor.id());
                }
            }
        }
        return Optional.empty();
    }

    /** The job would fit, but only on GPUs kept for an earlier job that fits nowhere yet. */
    static String behind(Job job, List<GpuSlot> wanted) {
        GpuSlot kept = wanted.stream().filter(slot -> slot.keptFor != null).findFirst().orElseThrow();
        Job owner = kept.keptFor;
        String rank = owner.priority() > job.priority() ? "higher-priority job " : "job ";
        return "behind " + rank + owner.id() + " (" + kept.label() + " is kept for it)";
    }

    /** A CPU-only job found every node that takes jobs at its CPU job limit. */
    String cpuWait(List<ClusterNode> usable) {
        int max = policy.maxCpuJobsPerNode();
        if (usable.size() == 1) {
            ClusterNode node = usable.get(0);
            return "waiting for a CPU slot on " + node.name() + " (" + node.cpuJobs + " of " + max + " in use)";
        }
        return "waiting for a CPU slot (all " + usable.size() + " nodes taking jobs have "
                + max + " of " + max + " in use)";
    }

    private String oneGpuDetail(JobSpec spec, List<ClusterNode> usable) {
        List<GpuSlot> capable = capable(spec, usable);
        if (capable.isEmpty()) {
            return unknownStateDetail(spec, usable);
        }
        Optional<GpuSlot> best = capable.stream().filter(slot -> slot.hasJobSlot(policy.maxJobsPerGpu()))
                .max(Comparator.comparingLong((GpuSlot slot) -> slot.freeMb).thenComparing(PendingReasons::earlierFirst));
        if (best.isEmpty()) {
            return slotsFull();
        }
        return "best: " + best.get().label() + " has " + Math.max(0, best.get().freeMb) + " MiB free"
                + claimedBy(best.get());
    }

    /**
     * "; shared-1 GPU1: bob: 16.0G held for …" for the GPUs the node's fair share left for other users'
     * waiting jobs that the detail did not already name, else "".
     */
    private static String holds(List<ClusterNode> usable, String detail) {
        StringBuilder text = new StringBuilder();
        for (ClusterNode node : usable) {
            for (GpuSlot slot : node.slots) {
                String held = slot.hold == null ? null : slot.hold.describe(slot.gpu.uuid());
                if (held != null && !detail.contains(held)) {
                    text.append("; ").append(slot.label()).append(": ").append(held);
                }
            }
        }
        return text.toString();
    }

    /** "; claimed by alice: 16.0G reserved, job 12 of queue laptop" for a GPU other queues claim, else "". */
    static String claimedBy(GpuSlot slot) {
        List<dev.nvidb.model.GpuClaim> claims = slot.claims();
        if (claims.isEmpty()) {
            return "";
        }
        List<String> named = claims.stream().limit(3).map(claim -> claim.describe(slot.gpu.uuid())).toList();
        int more = claims.size() - named.size();
        return "; claimed by " + String.join("; ", named) + (more > 0 ? " and " + more + " more" : "");
    }

    private String multiGpuDetail(JobSpec spec, List<ClusterNode> usable) {
        List<GpuSlot> capable = capable(spec, usable);
        if (capable.isEmpty()) {
            return unknownStateDetail(spec, usable);
        }
        if (capable.stream().noneMatch(slot -> slot.hasJobSlot(policy.maxJobsPerGpu()))) {
            return slotsFull();
        }
        ClusterNode best = null;
        long bestCount = -1;
        for (ClusterNode node : usable) {
            long count = node.slots.stream().filter(slot -> slot.fits(spec.vramMb(), policy.maxJobsPerGpu(), false,
                    spec.policy().exclusive())).count();
            if (count > bestCount) {
                best = node;
                bestCount = count;
            }
        }
        return best.name() + " has " + bestCount + (spec.vramMb() == 0 ? " with room" : "");
    }

    /** Target GPUs large enough for the job, on nodes that take jobs. */
    private List<GpuSlot> capable(JobSpec spec, List<ClusterNode> usable) {
        List<GpuSlot> capable = new ArrayList<>();
        for (ClusterNode node : usable) {
            for (GpuSlot slot : node.slots) {
                if (slot.target && slot.couldEverHold(spec.vramMb(), policy.headroomMb())) {
                    capable.add(slot);
                }
            }
        }
        return capable;
    }

    private String unknownStateDetail(JobSpec spec, List<ClusterNode> usable) {
        List<String> unknown = usable.stream().flatMap(node -> node.offered().stream())
                .filter(slot -> !slot.gpu.state().known()).map(GpuSlot::label).limit(NAMED_NODES).toList();
        return unknown.isEmpty()
                ? "no GPU that could hold it is open now"
                : "no GPU that could hold it reports its state: " + String.join(", ", unknown) + " unknown";
    }

    private String slotsFull() {
        return "every GPU that could hold it has " + policy.maxJobsPerGpu() + " jobs, the max_jobs_per_gpu";
    }

    private static String need(JobSpec spec) {
        if (spec.gpus() == 1) {
            return spec.vramMb() > 0 ? spec.vramMb() + " MiB on 1 GPU" : "1 GPU";
        }
        return spec.gpus() + " GPUs" + (spec.vramMb() > 0 ? " with " + spec.vramMb() + " MiB each" : "") + " on one node";
    }

    private static String named(List<ClusterNode> nodes) {
        List<String> parts = nodes.stream().limit(NAMED_NODES).map(node -> node.name() + " " + whyNot(node)).toList();
        String more = nodes.size() > NAMED_NODES ? " and " + (nodes.size() - NAMED_NODES) + " more" : "";
        return String.join(", ", parts) + more;
    }

    private static String whyNot(ClusterNode node) {
        return node.capacity.drained() ? "drained" : "not answering";
    }

    /** For max(): among equals, the earlier node and lower index compare greater, so they win. */
    private static int earlierFirst(GpuSlot left, GpuSlot right) {
        int byNode = Integer.compare(right.node.order, left.node.order);
        return byNode != 0 ? byNode : Integer.compare(right.gpu.index(), left.gpu.index());
    }
}
