package dev.nvidb.scheduler;

import dev.nvidb.model.Job;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Places one GPU job, or says why it waits: on the GPUs the picker chooses; else "behind" the
 * earlier job whose kept GPUs it would need; else waiting for capacity, keeping the GPUs
 * closest to fitting it. Capacity only shrinks within a plan, so a demand that found no room
 * is not searched again, and its reason is reused until a placement changes the budgets.
 */
final class GpuPlacement {

    private final Cluster cluster;
    private final GpuPicker picker;
    private final PendingReasons reasons;
    private final PlanBuilder plan;
    private final Map<Demand, Nodes> nodesByDemand = new HashMap<>();
    private final Set<Demand> noRoomBesideKept = new HashSet<>();
    private final Set<Demand> noRoomAtAll = new HashSet<>();
    private final Map<Demand, CachedReason> waits = new HashMap<>();
    private final Map<Demand, Blocked> blocked = new HashMap<>();
    /** What the last {@link #decide} did, for {@link Explainer}: the same decision, not a second opinion. */
    Decision last;

    GpuPlacement(Cluster cluster, SchedulingPolicy policy, PlanBuilder plan) {
        this.cluster = cluster;
        this.picker = new GpuPicker(policy, cluster.targetCount());
        this.reasons = new PendingReasons(policy);
        this.plan = plan;
    }

    /** Decides a GPU job that is ready to run, given the nodes that could ever hold it. */
    void decide(Job job, List<ClusterNode> feasible) {
        Demand demand = Demand.of(job.spec());
        Nodes nodes = nodesByDemand.computeIfAbsent(demand, key -> Nodes.split(feasible));
        if (nodes.usable.isEmpty()) {
            plan.pending(job, PendingReasons.unavailable(feasible));
            last = new Decision(Decision.Kind.UNAVAILABLE, List.of());
            return;
        }
        Optional<List<GpuSlot>> chosen = noRoomBesideKept.contains(demand)
                ? Optional.empty() : picker.pick(job.spec(), nodes.usable, true);
        if (chosen.isPresent()) {
            if (demand.exclusive()) {
                chosen.get().forEach(slot -> slot.exclusiveFor = job);
            }
            cluster.take(chosen.get(), demand.vramMb());
            chosen.get().get(0).node.chargeRoom(job.spec());
            plan.place(job, chosen.get().get(0).node.name(), chosen.get());
            last = new Decision(Decision.Kind.PLACED, chosen.get());
            return;
        }
        noRoomBesideKept.add(demand);
        Optional<List<GpuSlot>> blockedBy = noRoomAtAll.contains(demand) ? Optional.empty() : blockedBy(demand, job);
        if (blockedBy.isPresent()) {
            plan.pending(job, PendingReasons.behind(job, blockedBy.get()));
            last = new Decision(Decision.Kind.BEHIND, blockedBy.get());
            return;
        }
        noRoomAtAll.add(demand);
        plan.pending(job, capacityReason(job, demand, nodes));
        picker.keep(job, nodes.usable);
        last = new Decision(Decision.Kind.WAITING, List.of());
    }

    /**
     * The job went to a Slurm node instead of waiting: the GPUs kept for it are free again for later
     * jobs, and what was learnt about room beside kept GPUs is forgotten.
     */
    void release(Job job) {
        if (last != null && last.kind() == Decision.Kind.WAITING) {
            picker.release(job, cluster.nodes());
            noRoomBesideKept.clear();
            noRoomAtAll.clear();
            blocked.clear();
            waits.clear();
        }
    }

    /** Where the job would fit if no GPU were kept; reused while neither budgets nor keeps change. */
    private Optional<List<GpuSlot>> blockedBy(Demand demand, Job job) {
        Blocked cached = blocked.get(demand);
        if (cached != null && cached.capacityVersion == cluster.capacityVersion() && cached.kept == picker.keptCount()) {
            return Optional.of(cached.slots);
        }
        Optional<List<GpuSlot>> slots = picker.pick(job.spec(), nodesByDemand.get(demand).usable, false);
        slots.ifPresent(found -> blocked.put(demand, new Blocked(cluster.capacityVersion(), picker.keptCount(), found)));
        return slots;
    }

    private String capacityReason(Job job, Demand demand, Nodes nodes) {
        CachedReason cached = waits.get(demand);
        if (cached != null && cached.capacityVersion == cluster.capacityVersion()) {
            return cached.reason;
        }
        String reason = reasons.gpuWait(job.spec(), nodes.usable, nodes.elsewhere);
        waits.put(demand, new CachedReason(cluster.capacityVersion(), reason));
        return reason;
    }

    /**
     * How a GPU job that was ready was decided: placed on {@code slots}; no node that could hold it
     * takes jobs; behind an earlier job ({@code slots}: where it would fit but for the GPUs kept);
     * or waiting for capacity (keeping GPUs, which carry it in {@link GpuSlot#keptFor}).
     */
    record Decision(Kind kind, List<GpuSlot> slots) {

        /** The four ways a ready GPU job is decided. */
        enum Kind { PLACED, UNAVAILABLE, BEHIND, WAITING }
    }

    /** A demand's feasible nodes, split into those taking jobs now and the rest. */
    private record Nodes(List<ClusterNode> usable, List<ClusterNode> elsewhere) {

        static Nodes split(List<ClusterNode> feasible) {
            return new Nodes(feasible.stream().filter(ClusterNode::takesJobs).toList(),
                    feasible.stream().filter(node -> !node.takesJobs()).toList());
        }
    }

    /** The GPUs a demand would take if none were kept, and the state they were found in. */
    private record Blocked(long capacityVersion, int kept, List<GpuSlot> slots) {
    }

    /** A capacity reason and the budgets it was computed from. */
    private record CachedReason(long capacityVersion, String reason) {
    }
}
