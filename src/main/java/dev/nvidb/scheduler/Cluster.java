package dev.nvidb.scheduler;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * All nodes during one planning pass, in input order, with every budget computed once up
 * front. Placements made by the plan are charged here, so later jobs in the same plan see
 * them (no double booking within a tick).
 */
final class Cluster {

    private final Map<String, ClusterNode> byName = new LinkedHashMap<>();
    private final List<ClusterNode> nodes = new ArrayList<>();
    /** Bumped whenever this plan charges a GPU: a cached capacity reason is stale once it moves. */
    private long capacityVersion;

    Cluster(List<NodeCapacity> capacities, List<Job> running, long headroomMb) {
        Map<String, List<Job>> runningByNode = new HashMap<>();
        for (Job job : running) {
            runningByNode.computeIfAbsent(job.assignment().node(), name -> new ArrayList<>()).add(job);
        }
        for (NodeCapacity capacity : capacities) {
            ClusterNode node = new ClusterNode(capacity, nodes.size(),
                    runningByNode.getOrDefault(capacity.name(), List.of()), headroomMb);
            if (byName.putIfAbsent(capacity.name(), node) != null) {
                throw new IllegalArgumentException("node " + capacity.name() + " is listed twice");
            }
            nodes.add(node);
        }
    }

    /** The nodes a job may run on: the one {@code --node} names (if it exists), else all. */
    List<ClusterNode> candidates(JobSpec spec) {
        if (spec.node() == null) {
            return nodes;
        }
        ClusterNode node = byName.get(spec.node());
        return node == null ? List.of() : List.of(node);
    }

    /** Charges a placed GPU job to its GPUs. */
    void take(List<GpuSlot> slots, long vramMb) {
        slots.forEach(slot -> slot.take(vramMb));
        slots.get(0).node.refreshMaxTargetFree();
        capacityVersion++;
    }

    /** Every node, in input order. */
    List<ClusterNode> nodes() {
        return nodes;
    }

    long capacityVersion() {
        return capacityVersion;
    }

    /** How many GPUs may take new jobs this tick (before anything is placed or kept). */
    int targetCount() {
        return (int) nodes.stream().flatMap(node -> node.slots.stream()).filter(slot -> slot.target).count();
    }

    /** Charges a placed CPU-only job to its node. */
    void take(ClusterNode node) {
        node.cpuJobs++;
    }
}
