package dev.nvidb.scheduler;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One queue node as the scheduler sees it this tick. Only an {@link NodeStatus#ANSWERED},
 * undrained node takes new jobs; the others still count when deciding whether a job could
 * ever run (a drain or an outage is temporary).
 *
 * @param name         the node's name, as {@code --node} spells it
 * @param status       answered this tick, not answering (GPUs = last known inventory), or never answered
 * @param drained      no new placements; jobs already there are unaffected
 * @param gpuAllowlist GPU indices open to queue placements: null = all, empty = none (CPU jobs only)
 * @param gpus         the node's GPUs (every GPU it has, allowlisted or not)
 * @param slurm        a Slurm cluster: Slurm owns its budget, so it has no GPUs here and takes any job
 *                     that names it or may overflow to Slurm (docs/scheduling.md)
 * @param room         what the node's sharing policy still lets this queue's user take there
 */
public record NodeCapacity(String name, NodeStatus status, boolean drained, List<Integer> gpuAllowlist,
                           List<GpuCapacity> gpus, boolean slurm, PolicyRoom room) {

    /** A node under no sharing policy cap. */
    public NodeCapacity(String name, NodeStatus status, boolean drained, List<Integer> gpuAllowlist,
                        List<GpuCapacity> gpus, boolean slurm) {
        this(name, status, drained, gpuAllowlist, gpus, slurm, PolicyRoom.NONE);
    }

    /** A workstation (not a Slurm cluster). */
    public NodeCapacity(String name, NodeStatus status, boolean drained, List<Integer> gpuAllowlist,
                        List<GpuCapacity> gpus) {
        this(name, status, drained, gpuAllowlist, gpus, false);
    }

    /** A Slurm cluster whose controller answered ({@code answered}) or not. */
    public static NodeCapacity slurm(String name, boolean answered) {
        return new NodeCapacity(name, answered ? NodeStatus.ANSWERED : NodeStatus.NOT_ANSWERING, false, null,
                List.of(), true);
    }

    public NodeCapacity {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(status, "status");
        room = room == null ? PolicyRoom.NONE : room;
        gpuAllowlist = gpuAllowlist == null ? null : List.copyOf(gpuAllowlist);
        gpus = List.copyOf(gpus);
        if (status == NodeStatus.NEVER_ANSWERED && !gpus.isEmpty()) {
            throw new IllegalArgumentException("node " + name + " never answered, so it has no known GPUs");
        }
        Set<Integer> seen = new HashSet<>();
        for (GpuCapacity gpu : gpus) {
            if (!seen.add(gpu.index())) {
                throw new IllegalArgumentException("node " + name + " lists GPU " + gpu.index() + " twice");
            }
        }
    }

    /** A node that answered this tick with these GPUs, open to placements on all of them. */
    public static NodeCapacity answered(String name, List<GpuCapacity> gpus) {
        return new NodeCapacity(name, NodeStatus.ANSWERED, false, null, gpus);
    }

    /** A node that did not answer this tick; {@code lastKnownGpus} is its inventory when last seen. */
    public static NodeCapacity notAnswering(String name, List<GpuCapacity> lastKnownGpus) {
        return new NodeCapacity(name, NodeStatus.NOT_ANSWERING, false, null, lastKnownGpus);
    }

    /** A node that has never answered: nothing is known about its GPUs. */
    public static NodeCapacity neverAnswered(String name) {
        return new NodeCapacity(name, NodeStatus.NEVER_ANSWERED, false, null, List.of());
    }

    /** The same node, drained. */
    public NodeCapacity asDrained() {
        return new NodeCapacity(name, status, true, gpuAllowlist, gpus, slurm, room);
    }

    /** The same node with another allowlist (null = all GPUs). */
    public NodeCapacity withGpuAllowlist(List<Integer> allowlist) {
        return new NodeCapacity(name, status, drained, allowlist, gpus, slurm, room);
    }

    /** The same node with these GPUs (a fair-share hold charged on them). */
    public NodeCapacity withGpus(List<GpuCapacity> changed) {
        return new NodeCapacity(name, status, drained, gpuAllowlist, changed, slurm, room);
    }

    /** The same node under the sharing policy's room for this queue's user. */
    public NodeCapacity withRoom(PolicyRoom policyRoom) {
        return new NodeCapacity(name, status, drained, gpuAllowlist, gpus, slurm, policyRoom);
    }

    /** True when new jobs may be placed here this tick. */
    public boolean takesJobs() {
        return status == NodeStatus.ANSWERED && !drained;
    }

    /** True when the allowlist opens GPU {@code index} to queue placements. */
    public boolean allows(int index) {
        return gpuAllowlist == null || gpuAllowlist.contains(index);
    }
}
