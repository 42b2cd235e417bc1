package dev.nvidb.scheduler;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobStatus;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The queue's scheduler: a pure function from one tick's state to a {@link Plan}. It reads no
 * clock, file, database or network; the same input always gives the same plan.
 *
 * <p>Pending jobs are decided one by one, higher priority first, then lower id (FIFO). Each
 * placement is charged before the next job is decided. A GPU job that fits nowhere right now
 * lets later jobs pass it (backfill), but keeps the GPUs closest to fitting it: later jobs may
 * not use them, so a large job is not starved by a stream of small ones. See docs/scheduling.md.
 */
public final class Scheduler {

    /** Decision order: higher priority first, then lower id (submission order). */
    static final Comparator<Job> ORDER = Comparator.comparingInt(Job::priority).reversed()
            .thenComparingLong(Job::id);

    private final SchedulingPolicy policy;
    final Cluster cluster;
    private final Dependencies dependencies;
    final Feasibility feasibility;
    private final PendingReasons reasons;
    final PlanBuilder plan;
    final GpuPlacement gpuPlacement;
    private final java.util.Map<String, Integer> caps;
    /** Running jobs per capped group, placements of this plan included. */
    private final java.util.Map<String, Integer> runningInGroup = new java.util.HashMap<>();

    /** Slurm clusters as nodes, by name: outside {@link #cluster}, since Slurm owns their budget. */
    private final java.util.Map<String, NodeCapacity> slurm = new java.util.LinkedHashMap<>();

    Scheduler(QueueSnapshot queue, List<NodeCapacity> nodes, SchedulingPolicy policy) {
        this.policy = policy;
        this.plan = new PlanBuilder(queue.pending().size());
        nodes.stream().filter(NodeCapacity::slurm).forEach(node -> slurm.put(node.name(), node));
        this.cluster = new Cluster(nodes.stream().filter(node -> !node.slurm()).toList(), queue.running(),
                policy.headroomMb());
        this.dependencies = new Dependencies(queue);
        this.feasibility = new Feasibility(policy);
        this.reasons = new PendingReasons(policy);
        this.gpuPlacement = new GpuPlacement(cluster, policy, plan);
        this.caps = queue.groupCaps();
        for (Job job : queue.running()) {
            String group = job.spec().sweep().group();
            if (group != null && caps.containsKey(group)) {
                runningInGroup.merge(group, 1, Integer::sum);
            }
        }
    }

    /**
     * Plans one tick.
     *
     * @param queue  pending and running jobs, and the states of jobs they depend on
     * @param nodes  every queue node, in the order ties are broken (answering or not)
     * @param policy headroom, placement mode and job limits
     * @param now    the tick's time, for timeouts
     * @return placements, a reason for every pending job left waiting, jobs to fail, jobs to kill
     */
    public static Plan plan(QueueSnapshot queue, List<NodeCapacity> nodes, SchedulingPolicy policy, Instant now) {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(nodes, "nodes");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(now, "now");
        Scheduler scheduler = new Scheduler(queue, nodes, policy);
        queue.running().stream().filter(job -> pastDeadline(job, now)).forEach(scheduler.plan::timedOut);
        queue.pending().stream().sorted(ORDER).forEach(scheduler::decide);
        return scheduler.plan.build();
    }

    /**
     * True when a running job's deadline ({@code startedAt + timeout}) is at or before {@code now};
     * compared as durations, so no timeout (even one written into the database by hand) overflows.
     */
    static boolean pastDeadline(Job job, Instant now) {
        Long timeout = job.spec().timeoutSeconds();
        return timeout != null && job.status() instanceof JobStatus.Running running
                && java.time.Duration.between(running.startedAt(), now).compareTo(java.time.Duration.ofSeconds(timeout)) >= 0;
    }

    /**
     * The reason every pending job gets when the queue has nodes but all of them are ignored
     * ({@code queue ignore}): "no queue nodes" would mislead.
     */
    public static String everyNodeIgnored(List<String> ignored) {
        return "every queue node is ignored (" + String.join(", ", ignored)
                + "); bring one back with 'nvidb queue unignore NODE'";
    }

    void decide(Job job) {
        if (job.held()) {
            plan.pending(job, PendingReasons.held(job));
            return;
        }
        Dependencies.Verdict verdict = dependencies.check(job);
        if (verdict.kind() == Dependencies.Verdict.Kind.FAILED) {
            plan.dependencyFailed(job, verdict.reason());
            return;
        }
        NodeCapacity named = job.spec().node() == null ? null : slurm.get(job.spec().node());
        if (named != null) {
            decideOnSlurm(job, named, verdict);
            return;
        }
        List<ClusterNode> candidates = cluster.candidates(job.spec());
        Optional<String> never = feasibility.neverReason(job.spec(), candidates);
        List<NodeCapacity> overflow = overflow(job);
        if ((never.isPresent() || candidates.isEmpty()) && !overflow.isEmpty()) {
            // No workstation could ever hold it (or there is none), but Slurm may: it waits for Slurm alone.
            decideOnSlurm(job, overflow.stream().filter(NodeCapacity::takesJobs).findFirst().orElse(overflow.get(0)),
                    verdict);
        } else if (never.isPresent()) {
            plan.unschedulable(job, never.get());
        } else if (verdict.kind() == Dependencies.Verdict.Kind.WAITING) {
            plan.pending(job, verdict.reason());
        } else if (atCap(job)) {
            String group = job.spec().sweep().group();
            plan.pending(job, PendingReasons.groupCap(group, runningInGroup.get(group), caps.get(group)));
        } else if (candidates.isEmpty()) {
            plan.pending(job, job.spec().node() != null
                    ? PendingReasons.notAQueueNode(job.spec().node()) : PendingReasons.noNodes());
        } else {
            int before = plan.placedCount();
            if (job.spec().cpuOnly()) {
                placeCpuJob(job, candidates);
            } else {
                gpuPlacement.decide(job, feasibility.feasible(job.spec(), candidates));
            }
            overflow.stream().filter(NodeCapacity::takesJobs).findFirst()
                    .filter(node -> plan.placedCount() == before)
                    .ifPresent(node -> {
                        // The workstations cannot place it now: Slurm queues it instead.
                        if (!job.spec().cpuOnly()) {
                            gpuPlacement.release(job);
                        }
                        plan.place(job, node.name(), List.of());
                    });
            String group = job.spec().sweep().group();
            if (plan.placedCount() > before && group != null && caps.containsKey(group)) {
                runningInGroup.merge(group, 1, Integer::sum);
            }
        }
    }

    /**
     * A job that names a Slurm node: handed to Slurm once it is ready (dependencies done, under its
     * group's cap) and the cluster's controller answers; Slurm owns the budget, so nothing is charged.
     */
    private void decideOnSlurm(Job job, NodeCapacity node, Dependencies.Verdict verdict) {
        String group = job.spec().sweep().group();
        if (verdict.kind() == Dependencies.Verdict.Kind.WAITING) {
            plan.pending(job, verdict.reason());
        } else if (atCap(job)) {
            plan.pending(job, PendingReasons.groupCap(group, runningInGroup.get(group), caps.get(group)));
        } else if (!node.takesJobs()) {
            plan.pending(job, PendingReasons.slurmUnavailable(node));
        } else {
            placeOnSlurm(job, node);
        }
    }

    private void placeOnSlurm(Job job, NodeCapacity node) {
        plan.place(job, node.name(), List.of());
        String group = job.spec().sweep().group();
        if (group != null && caps.containsKey(group)) {
            runningInGroup.merge(group, 1, Integer::sum);
        }
    }

    /**
     * The Slurm nodes a job may overflow to when the workstations cannot place it, in node order: all of
     * them when the queue's {@code slurm_overflow} or the job's {@code --allow-slurm} allows it and the job
     * names no node; else none.
     */
    private List<NodeCapacity> overflow(Job job) {
        if (job.spec().node() != null || !(policy.slurmOverflow() || job.spec().policy().allowSlurm())) {
            return List.of();
        }
        return List.copyOf(slurm.values());
    }

    /** Whether the job's group already runs as many jobs as its cap allows. */
    private boolean atCap(Job job) {
        String group = job.spec().sweep().group();
        Integer cap = group == null ? null : caps.get(group);
        return cap != null && runningInGroup.getOrDefault(group, 0) >= cap;
    }

    private void placeCpuJob(Job job, List<ClusterNode> candidates) {
        List<ClusterNode> usable = candidates.stream().filter(ClusterNode::takesJobs).toList();
        if (usable.isEmpty()) {
            plan.pending(job, PendingReasons.unavailable(candidates));
            return;
        }
        // CPU-only jobs always spread (fewest CPU jobs first): packing keeps GPUs free, not CPUs.
        ClusterNode best = null;
        for (ClusterNode node : usable) {
            if (node.hasCpuSlot(policy.maxCpuJobsPerNode()) && (best == null || node.cpuJobs < best.cpuJobs)) {
                best = node;
            }
        }
        if (best == null) {
            plan.pending(job, reasons.cpuWait(usable));
            return;
        }
        cluster.take(best);
        plan.place(job, best.name(), List.of());
    }
}
