package dev.nvidb.scheduler;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import dev.nvidb.model.JobStatus;
import dev.nvidb.scheduler.Explanation.Blocker;
import dev.nvidb.scheduler.Explanation.BlockerKind;
import dev.nvidb.scheduler.Explanation.DependencyCheck;
import dev.nvidb.scheduler.Explanation.DependencyVerdict;
import dev.nvidb.scheduler.Explanation.Fit;
import dev.nvidb.scheduler.Explanation.FitKind;
import dev.nvidb.scheduler.Explanation.GpuKind;
import dev.nvidb.scheduler.Explanation.GpuVerdict;
import dev.nvidb.scheduler.Explanation.NodeKind;
import dev.nvidb.scheduler.Explanation.NodeVerdict;
import dev.nvidb.scheduler.Explanation.Outcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Explains one pending job ({@code nvidb job why}) with the scheduler's own code, so the
 * explanation and the placement cannot disagree. It plans twice: once as the tick would (the
 * outcome and the one-line reason), and once with the job's hold and dependencies lifted, in
 * which every job ranked before it is decided exactly as {@link Scheduler#plan} decides it; the
 * budgets, kept GPUs and job counts at the moment the job's turn comes are its node and GPU
 * verdicts, and that decision is where it would fit first.
 */
public final class Explainer {

    private final Job job;
    private final SchedulingPolicy policy;
    private final Scheduler scheduler;
    /** Each slot as the job's turn found it, before its own decision charged or kept anything. */
    private final Map<GpuSlot, Before> before = new HashMap<>();

    private Explainer(Job job, Scheduler scheduler, SchedulingPolicy policy) {
        this.job = job;
        this.scheduler = scheduler;
        this.policy = policy;
    }

    /**
     * Explains pending job {@code jobId} given the inputs of {@link Scheduler#plan}.
     *
     * @param ignored queue nodes left out by {@code queue ignore} (not among {@code nodes})
     * @throws IllegalArgumentException when the job is not among the pending jobs
     */
    public static Explanation explain(QueueSnapshot queue, List<NodeCapacity> nodes, SchedulingPolicy policy,
                                      Instant now, long jobId, List<String> ignored) {
        Job job = queue.pending().stream().filter(pending -> pending.id() == jobId).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("job " + jobId + " is not pending"));
        Plan real = Scheduler.plan(queue, nodes, policy, now);
        Job unblocked = job.withStatus(JobStatus.PENDING).withSpec(withoutDependencies(job.spec()));
        List<Job> pending = queue.pending().stream().map(other -> other.id() == jobId ? unblocked : other).toList();
        QueueSnapshot lifted = new QueueSnapshot(pending, queue.running(), queue.dependencyStates());
        Explainer explainer = new Explainer(unblocked, new Scheduler(lifted, nodes, policy), policy);
        for (Job other : pending.stream().sorted(Scheduler.ORDER).toList()) {
            if (other.id() == jobId) {
                break;
            }
            explainer.scheduler.decide(other);
        }
        explainer.capture();
        explainer.scheduler.gpuPlacement.last = null;
        explainer.scheduler.decide(unblocked);
        Plan plan = explainer.scheduler.plan.build();
        Fit fit = explainer.fit(plan);
        List<NodeVerdict> verdicts = new ArrayList<>();
        ignored.forEach(name -> verdicts.add(new NodeVerdict(name, NodeKind.IGNORED,
                "ignored ('nvidb queue unignore " + name + "' brings it back)", null, false, 0, 0, List.of())));
        explainer.scheduler.cluster.nodes().forEach(node -> verdicts.add(explainer.node(node, fit)));
        List<DependencyCheck> dependencies = new Dependencies(queue).details(job);
        Outcome outcome = outcome(real, jobId);
        String reason = reason(real, jobId);
        if (outcome == Outcome.WAITS && nodes.isEmpty() && !ignored.isEmpty()) {
            reason = Scheduler.everyNodeIgnored(ignored);
        }
        List<Blocker> blockers = outcome == Outcome.STARTS ? List.of()
                : blockers(job, queue, dependencies, fit, plan.findPendingReason(jobId).orElse(null), ignored);
        JobSpec spec = job.spec();
        return new Explanation(jobId, spec.gpus(), spec.vramMb(), spec.node(), policy, outcome, reason, blockers,
                dependencies, verdicts, fit);
    }

    private static JobSpec withoutDependencies(JobSpec spec) {
        return spec.withDependencies(List.of());
    }

    private static Outcome outcome(Plan plan, long jobId) {
        if (plan.findPlacement(jobId).isPresent()) {
            return Outcome.STARTS;
        }
        if (plan.unschedulable().containsKey(jobId)) {
            return Outcome.NEVER;
        }
        return plan.dependencyFailed().containsKey(jobId) ? Outcome.DEPENDENCY_FAILED : Outcome.WAITS;
    }

    private static String reason(Plan plan, long jobId) {
        return plan.findPendingReason(jobId).or(() -> Optional.ofNullable(plan.unschedulable().get(jobId)))
                .orElse(plan.dependencyFailed().get(jobId));
    }

    private void capture() {
        for (ClusterNode node : scheduler.cluster.nodes()) {
            for (GpuSlot slot : node.slots) {
                before.put(slot, new Before(slot.freeMb, slot.jobCount, slot.keptFor == null ? null : slot.keptFor.id(),
                        slot.exclusiveFor == null ? null : slot.exclusiveFor.id(), slot.empty()));
            }
        }
    }

    /** Where the lifted job went: the same decision the plan makes for it once it is ready. */
    private Fit fit(Plan plan) {
        long id = job.id();
        JobSpec spec = job.spec();
        Optional<Placement> placed = plan.findPlacement(id);
        if (placed.isPresent()) {
            Placement placement = placed.get();
            String where = spec.cpuOnly() ? placement.node() : labels(placement.node(), placement.gpuIndices());
            return new Fit(FitKind.NOW, placement.node(), placement.gpuIndices(), placement.gpuUuids(), List.of(),
                    "now, on " + where);
        }
        if (plan.unschedulable().containsKey(id)) {
            return new Fit(FitKind.NEVER, null, List.of(), List.of(), List.of(),
                    "nowhere: " + plan.unschedulable().get(id));
        }
        String reason = plan.findPendingReason(id).orElse("");
        if (scheduler.cluster.candidates(spec).isEmpty()) {
            return new Fit(FitKind.NO_NODE, null, List.of(), List.of(), List.of(), "nowhere: " + reason);
        }
        GpuPlacement.Decision decision = scheduler.gpuPlacement.last;
        if (spec.cpuOnly()) {
            boolean anyTakes = scheduler.cluster.candidates(spec).stream().anyMatch(ClusterNode::takesJobs);
            return new Fit(anyTakes ? FitKind.LATER : FitKind.UNAVAILABLE, null, List.of(), List.of(), List.of(),
                    "not now: " + reason);
        }
        if (decision == null) {
            // Decided for a Slurm node (it waits for one that does not answer): the workstations had no say.
            return new Fit(FitKind.UNAVAILABLE, null, List.of(), List.of(), List.of(), "not now: " + reason);
        }
        return switch (decision.kind()) {
            case PLACED -> throw new IllegalStateException("job " + id + " placed but not in the plan");
            case UNAVAILABLE -> new Fit(FitKind.UNAVAILABLE, null, List.of(), List.of(), List.of(), "not now: " + reason);
            case BEHIND -> behind(decision.slots());
            case WAITING -> later(reason);
        };
    }

    private Fit behind(List<GpuSlot> slots) {
        String node = slots.get(0).node.name();
        List<Long> owners = slots.stream().filter(slot -> slot.keptFor != null).map(slot -> slot.keptFor.id()).toList();
        List<Integer> indices = slots.stream().map(slot -> slot.gpu.index()).toList();
        String jobs = String.join(", ", owners.stream().distinct().sorted().map(String::valueOf).toList());
        return new Fit(FitKind.BEHIND, node, indices, slots.stream().map(slot -> slot.gpu.uuid()).toList(), owners,
                "on " + labels(node, indices) + " once job " + jobs + " no longer keeps "
                        + (slots.size() == 1 ? "it" : "them"));
    }

    /** Nowhere now: the GPUs kept for it are where it goes first, once they have room. */
    private Fit later(String reason) {
        List<GpuSlot> kept = new ArrayList<>();
        for (ClusterNode node : scheduler.cluster.nodes()) {
            node.slots.stream().filter(slot -> slot.keptFor != null && slot.keptFor.id() == job.id()).forEach(kept::add);
        }
        if (kept.isEmpty()) {
            // Nothing kept: every GPU that could hold it is kept already, or none is a target (state unknown).
            return new Fit(FitKind.LATER, null, List.of(), List.of(), List.of(), "nowhere now: " + reason);
        }
        String node = kept.get(0).node.name();
        List<Integer> indices = kept.stream().map(slot -> slot.gpu.index()).toList();
        long shortest = kept.stream().mapToLong(slot -> Math.max(0, job.spec().vramMb() - before.get(slot).freeMb))
                .max().orElse(0);
        String when = shortest > 0 ? "once " + shortest + " MiB more is free there"
                : "once a queue job there ends (max_jobs_per_gpu " + policy.maxJobsPerGpu() + ")";
        if (kept.size() < job.spec().gpus()) {
            when = "once " + (job.spec().gpus() - kept.size()) + " more GPU" + (job.spec().gpus() - kept.size() == 1 ? "" : "s")
                    + " there " + (job.spec().gpus() - kept.size() == 1 ? "has" : "have") + " room";
        }
        return new Fit(FitKind.LATER, node, indices, kept.stream().map(slot -> slot.gpu.uuid()).toList(), List.of(),
                "nowhere now; first on " + labels(node, indices) + " (kept for it), " + when);
    }

    private NodeVerdict node(ClusterNode node, Fit fit) {
        JobSpec spec = job.spec();
        List<GpuVerdict> gpus = spec.cpuOnly() ? List.of() : node.slots.stream().map(slot -> gpu(slot, fit)).toList();
        int fitting = node.takesJobs() ? (int) gpus.stream().filter(gpu -> gpu.kind() == GpuKind.FITS).count() : 0;
        NodeCapacity capacity = node.capacity;
        NodeKind kind;
        String message;
        if (spec.node() != null && !spec.node().equals(node.name())) {
            kind = NodeKind.NOT_PINNED;
            message = "the job is pinned to " + spec.node() + " (--node)";
        } else if (capacity.status() == NodeStatus.NEVER_ANSWERED) {
            kind = NodeKind.NEVER_ANSWERED;
            message = "has never answered: its GPUs are unknown";
        } else if (!spec.cpuOnly() && node.fit(spec.gpus(), spec.vramMb(), policy.headroomMb()) == ClusterNode.Fit.NO) {
            kind = NodeKind.NEVER_FITS;
            message = neverHere(node, spec);
        } else if (capacity.status() == NodeStatus.NOT_ANSWERING) {
            kind = NodeKind.NOT_ANSWERING;
            message = "not answering: no capacity until it answers again";
        } else if (capacity.drained()) {
            kind = NodeKind.DRAINED;
            message = "takes no new jobs ('nvidb queue resume " + node.name() + "')";
        } else if (spec.cpuOnly()) {
            int cpuJobs = cpuJobsBefore(node, fit);
            boolean room = policy.maxCpuJobsPerNode() == 0 || cpuJobs < policy.maxCpuJobsPerNode();
            kind = room ? NodeKind.FITS : NodeKind.CPU_SLOTS_FULL;
            message = cpuJobs + (policy.maxCpuJobsPerNode() == 0 ? "" : " of " + policy.maxCpuJobsPerNode())
                    + " CPU job slots in use" + (room ? "; fits" : "") + chosen(node, fit);
        } else if (fitting >= spec.gpus()) {
            kind = NodeKind.FITS;
            message = fitting + " of " + node.slots.size() + " GPUs fit" + chosen(node, fit);
        } else {
            kind = NodeKind.NO_ROOM;
            message = spec.gpus() == 1 ? "no GPU has room now"
                    : "only " + fitting + " GPU" + (fitting == 1 ? "" : "s") + " with room now; the job needs " + spec.gpus();
        }
        return new NodeVerdict(node.name(), kind, message, capacity.status(), capacity.drained(),
                cpuJobsBefore(node, fit), fitting, gpus);
    }

    /** CPU jobs on the node as the job's turn found them (its own placement, if any, not counted). */
    private int cpuJobsBefore(ClusterNode node, Fit fit) {
        boolean placedHere = job.spec().cpuOnly() && fit.kind() == FitKind.NOW && node.name().equals(fit.node());
        return node.cpuJobs - (placedHere ? 1 : 0);
    }

    private static String chosen(ClusterNode node, Fit fit) {
        return fit.kind() == FitKind.NOW && node.name().equals(fit.node()) ? "; first choice" : "";
    }

    private String neverHere(ClusterNode node, JobSpec spec) {
        List<GpuSlot> offered = node.offered();
        if (node.slots.isEmpty()) {
            return "has no GPUs";
        }
        if (offered.size() < spec.gpus()) {
            return "offers " + Feasibility.gpus(offered.size()) + " to the queue; the job needs " + spec.gpus();
        }
        long largest = offered.stream().filter(slot -> slot.gpu.totalMb() != null)
                .mapToLong(slot -> slot.gpu.totalMb()).max().orElse(0);
        long capable = offered.stream().filter(slot -> slot.couldEverHold(spec.vramMb(), policy.headroomMb())).count();
        if (spec.gpus() == 1) {
            return "no GPU here can hold " + spec.vramMb() + " MiB: the largest has " + largest + " MiB"
                    + (policy.headroomMb() == 0 ? "" : ", " + (largest - policy.headroomMb()) + " after the headroom");
        }
        return Feasibility.gpus((int) capable) + " here can hold " + spec.vramMb() + " MiB; the job needs " + spec.gpus();
    }

    private GpuVerdict gpu(GpuSlot slot, Fit fit) {
        Before was = before.get(slot);
        long vram = job.spec().vramMb();
        GpuBudget budget = slot.budget;
        Long free = budget == null ? null : was.freeMb;
        long planned = budget == null ? 0 : budget.freeMb() - was.freeMb;
        GpuKind kind;
        String message;
        if (!slot.node.capacity.allows(slot.gpu.index())) {
            kind = GpuKind.NOT_OFFERED;
            message = "not open to the queue (gpus: " + slot.node.capacity.gpuAllowlist() + ")";
        } else if (slot.gpu.totalMb() != null && !slot.couldEverHold(vram, policy.headroomMb())) {
            kind = GpuKind.TOO_SMALL;
            message = "too small: holds at most " + Math.max(0, slot.gpu.totalMb() - policy.headroomMb()) + " MiB";
        } else if (budget == null) {
            kind = GpuKind.UNKNOWN;
            message = "state unknown: never a target";
        } else if (!(policy.maxJobsPerGpu() == 0 || was.jobCount < policy.maxJobsPerGpu())) {
            kind = GpuKind.JOB_LIMIT;
            message = "has " + was.jobCount + " queue jobs, the max_jobs_per_gpu";
        } else if (was.exclusiveFor != null && !job.spec().policy().exclusive()) {
            kind = GpuKind.HELD_EXCLUSIVELY;
            message = "held exclusively by job " + was.exclusiveFor;
        } else if (job.spec().policy().exclusive() && !was.empty) {
            kind = GpuKind.IN_USE;
            message = "in use: the job runs only on a GPU with no process at all (--exclusive)";
        } else if (was.freeMb < vram) {
            kind = GpuKind.SHORT;
            message = "short by " + (vram - Math.max(0, was.freeMb)) + " MiB";
        } else if (was.keptFor != null) {
            kind = GpuKind.KEPT;
            message = "kept for job " + was.keptFor;
        } else {
            kind = GpuKind.FITS;
            message = "fits";
        }
        Long keptFor = slot.keptFor == null ? null : slot.keptFor.id();
        if (keptFor != null && keptFor == job.id()) {
            message += " (kept for this job)";
        }
        if (fit.kind() == FitKind.NOW && slot.node.name().equals(fit.node()) && fit.gpuIndices().contains(slot.gpu.index())) {
            message += " (first choice)";
        }
        if ((kind == GpuKind.SHORT || kind == GpuKind.IN_USE) && !slot.claims().isEmpty()) {
            message += slot.gpu.claims().isEmpty() ? " (held for another user by the node's fair share)"
                    : " (claimed by another queue)";
        }
        return new GpuVerdict(slot.gpu.index(), slot.gpu.uuid(), slot.gpu.state(), slot.gpu.totalMb(), budget, planned,
                free, was.jobCount, keptFor, kind, message,
                slot.claims().stream().map(claim -> claim.describe(slot.gpu.uuid())).toList());
    }

    private static List<Blocker> blockers(Job job, QueueSnapshot queue, List<DependencyCheck> dependencies, Fit fit,
                                          String liftedReason, List<String> ignored) {
        List<Blocker> blockers = new ArrayList<>();
        if (job.held()) {
            blockers.add(new Blocker(BlockerKind.HELD, PendingReasons.held(job), List.of()));
        }
        Dependencies.Verdict verdict = new Dependencies(queue).check(job);
        List<Long> waiting = dependencies.stream().filter(check -> check.verdict() == DependencyVerdict.WAITING)
                .map(DependencyCheck::jobId).toList();
        List<Long> failed = dependencies.stream().filter(check -> check.verdict() == DependencyVerdict.FAILED)
                .map(DependencyCheck::jobId).toList();
        if (verdict.kind() == Dependencies.Verdict.Kind.FAILED) {
            blockers.add(new Blocker(BlockerKind.DEPENDENCY_FAILED, verdict.reason(), failed));
        } else if (verdict.kind() == Dependencies.Verdict.Kind.WAITING) {
            blockers.add(new Blocker(BlockerKind.DEPENDENCY_WAITING, verdict.reason(), waiting));
        }
        switch (fit.kind()) {
            case NOW -> { }
            case NEVER -> blockers.add(new Blocker(BlockerKind.NEVER_FITS, fit.message().substring("nowhere: ".length()),
                    List.of()));
            case NO_NODE -> blockers.add(job.spec().node() != null
                    ? new Blocker(BlockerKind.NOT_A_QUEUE_NODE, PendingReasons.notAQueueNode(job.spec().node()), List.of())
                    : new Blocker(BlockerKind.NO_NODES, ignored.isEmpty() ? PendingReasons.noNodes()
                            : Scheduler.everyNodeIgnored(ignored), List.of()));
            case UNAVAILABLE -> blockers.add(new Blocker(BlockerKind.NO_NODE_TAKES_JOBS, liftedReason, List.of()));
            case BEHIND -> blockers.add(new Blocker(BlockerKind.KEPT_FOR_EARLIER_JOB, liftedReason, fit.keptFor()));
            case LATER -> blockers.add(new Blocker(job.spec().cpuOnly() ? BlockerKind.CPU_SLOTS_FULL : BlockerKind.NO_ROOM,
                    liftedReason, List.of()));
        }
        return blockers;
    }

    private static String labels(String node, List<Integer> indices) {
        return node + " " + String.join(",", indices.stream().map(index -> "GPU" + index).toList());
    }

    /** A slot's figures when the job's turn came. */
    private record Before(long freeMb, int jobCount, Long keptFor, Long exclusiveFor, boolean empty) {
    }
}
