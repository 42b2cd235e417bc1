package dev.nvidb.scheduler;

import dev.nvidb.model.JobState;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Why one pending job is where it is, made by {@link Explainer} from the scheduler's own
 * decision (never a second opinion): what the scheduler decides now, every blocker of the job,
 * every node considered with its verdict and, per GPU, the figures of its budget, and where the
 * job would go first once its own blockers (hold, dependencies) are gone.
 *
 * @param jobId        the job
 * @param gpus         GPUs it needs on one node (0: CPU-only)
 * @param vramMb       MiB per GPU
 * @param node         the node {@code --node} pins it to, or null
 * @param policy       the policy it was judged under (headroom, placement, limits)
 * @param outcome      what this plan does with the job
 * @param reason       the scheduler's one line for it (pending reason, unschedulable or dependency
 *                     failure), null when it starts now
 * @param blockers     everything that keeps it from starting, job-level first; empty when it starts
 * @param dependencies each dependency as judged, in the listed order
 * @param nodes        every queue node (ignored ones included), in the scheduler's order
 * @param fit          where it would go first once its hold and dependencies are gone
 */
public record Explanation(long jobId, int gpus, long vramMb, String node, SchedulingPolicy policy, Outcome outcome,
                          String reason, List<Blocker> blockers, List<DependencyCheck> dependencies,
                          List<NodeVerdict> nodes, Fit fit) {

    public Explanation {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(fit, "fit");
        blockers = List.copyOf(blockers);
        dependencies = List.copyOf(dependencies);
        nodes = List.copyOf(nodes);
    }

    /** What the scheduler does with the job in this plan. */
    public enum Outcome {
        /** Placed now. */
        STARTS,
        /** Stays pending, with a reason. */
        WAITS,
        /** No known GPU could ever hold it: the tick fails it as unschedulable. */
        NEVER,
        /** An {@code --after} dependency can never be met: the tick fails it. */
        DEPENDENCY_FAILED;

        /** The JSON key: "starts", "waits", "never", "dependency_failed". */
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One kind of thing that keeps a job from starting. Job-level kinds come first; a later kind
     * (a group hold, an array's cap on running tasks) is one more constant here and one more case
     * in {@link Explainer}, its figures in {@link Blocker#jobIds()} and the message.
     */
    public enum BlockerKind {
        /** A person (or two failed launches) holds the job. */
        HELD,
        /** A dependency has not finished. */
        DEPENDENCY_WAITING,
        /** An {@code --after} dependency ended badly or was purged. */
        DEPENDENCY_FAILED,
        /** {@code --node} names a node that is not a queue node (not configured, or ignored). */
        NOT_A_QUEUE_NODE,
        /** The queue has no nodes (or every node is ignored). */
        NO_NODES,
        /** No known GPU could ever hold it. */
        NEVER_FITS,
        /** Every node that could hold it is drained or not answering. */
        NO_NODE_TAKES_JOBS,
        /** It would fit, but only on GPUs kept for an earlier job that fits nowhere yet. */
        KEPT_FOR_EARLIER_JOB,
        /** No node has enough GPUs with enough free memory (or a free job slot) now. */
        NO_ROOM,
        /** Every node taking jobs has its CPU-only jobs at the limit. */
        CPU_SLOTS_FULL;

        /** The JSON key, e.g. "dependency_waiting". */
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One blocker.
     *
     * @param kind    what kind
     * @param message one line, as a person reads it
     * @param jobIds  the other jobs involved (unfinished dependencies, the jobs GPUs are kept for), ascending
     */
    public record Blocker(BlockerKind kind, String message, List<Long> jobIds) {

        public Blocker {
            jobIds = jobIds.stream().distinct().sorted().toList();
        }
    }

    /** How one dependency is judged. */
    public enum DependencyVerdict {
        MET, WAITING, FAILED;

        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One dependency.
     *
     * @param jobId        the job depended on
     * @param needsSuccess {@code --after} (true) or {@code --after-any}
     * @param state        its state, or null when it was purged
     * @param held         it is pending and held
     * @param verdict      met, waiting or failed
     */
    public record DependencyCheck(long jobId, boolean needsSuccess, JobState state, boolean held,
                                  DependencyVerdict verdict) {
    }

    /** Why a node does (not) take the job, first reason that applies. */
    public enum NodeKind {
        /** Left out of the queue by {@code queue ignore}. */
        IGNORED,
        /** The job is pinned to another node. */
        NOT_PINNED,
        /** Never answered: nothing is known about its GPUs. */
        NEVER_ANSWERED,
        /** Too few GPUs (open to the queue, or large enough) to ever hold the job. */
        NEVER_FITS,
        /** Did not answer its last probe: no capacity. */
        NOT_ANSWERING,
        /** Drained: takes no new jobs. */
        DRAINED,
        /** Not enough GPUs with room now. */
        NO_ROOM,
        /** Its CPU-only jobs are at the limit. */
        CPU_SLOTS_FULL,
        /** The job fits here now. */
        FITS;

        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One node as the job saw it.
     *
     * @param node    its name
     * @param kind    its verdict
     * @param message one line with the figures
     * @param status  answered, not answering or never answered (null for an ignored node)
     * @param drained drained
     * @param cpuJobs CPU-only queue jobs there now (including ones placed earlier in this plan)
     * @param fitting GPUs where the job fits now
     * @param gpus    every GPU of the node (none for CPU-only jobs), ascending by index
     */
    public record NodeVerdict(String node, NodeKind kind, String message, NodeStatus status, boolean drained,
                              int cpuJobs, int fitting, List<GpuVerdict> gpus) {

        public NodeVerdict {
            gpus = List.copyOf(gpus);
        }
    }

    /** Why one GPU can (not) take the job now, first reason that applies. */
    public enum GpuKind {
        /** The node's allowlist ({@code gpus:}) does not open it to the queue. */
        NOT_OFFERED,
        /** Smaller than the job's {@code --vram} plus the headroom: never. */
        TOO_SMALL,
        /** Its state is unknown (probe failed, node not answering): never a target. */
        UNKNOWN,
        /** It has {@code max_jobs_per_gpu} queue jobs. */
        JOB_LIMIT,
        /** An {@code --exclusive} job runs on it: no other job goes there while it does. */
        HELD_EXCLUSIVELY,
        /** The job is {@code --exclusive} and something runs on this GPU (a queue job or another process). */
        IN_USE,
        /** Not enough free memory now. */
        SHORT,
        /** Kept for an earlier job that fits nowhere yet. */
        KEPT,
        /** The job fits (on a node that takes jobs: a target). */
        FITS;

        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One GPU's figures and verdict.
     *
     * @param index     NVML index
     * @param uuid      UUID, or null
     * @param state     measured, blind or unknown
     * @param totalMb   size (last known for an unknown GPU), or null
     * @param budget    the probe's budget (foreign, queue charges, headroom, free), null when unknown
     * @param plannedMb MiB charged to jobs this plan places before this one
     * @param freeMb    what this job may reserve here now: budget free minus planned (null when unknown)
     * @param jobs      queue jobs on it now, including ones placed earlier in this plan
     * @param keptFor   the job it is kept for (possibly this one), or null
     * @param kind      its verdict
     * @param message   one line with the figures
     * @param claims    other queues' claims on it, each as "alice: 16.0G reserved, job 12 of queue laptop"
     */
    public record GpuVerdict(int index, String uuid, GpuState state, Long totalMb, GpuBudget budget, long plannedMb,
                             Long freeMb, int jobs, Long keptFor, GpuKind kind, String message, List<String> claims) {

        public GpuVerdict {
            claims = List.copyOf(claims);
        }
    }

    /** Where the job would go first once its own blockers are gone. */
    public enum FitKind {
        /** On {@link Fit#node()} and {@link Fit#gpuIndices()}, now. */
        NOW,
        /** Only on GPUs kept for earlier jobs ({@link Fit#keptFor()}): after them. */
        BEHIND,
        /** Nowhere now; {@link Fit#gpuIndices()} are the GPUs kept for it, the closest to fitting. */
        LATER,
        /** Only on nodes that take no jobs now (drained, not answering). */
        UNAVAILABLE,
        /** Nowhere, ever: too large for every known GPU. */
        NEVER,
        /** There is no node for it (none configured, all ignored, or {@code --node} names none). */
        NO_NODE;

        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Where it would go first.
     *
     * @param kind       see {@link FitKind}
     * @param node       the node (NOW, BEHIND, LATER with kept GPUs), or null
     * @param gpuIndices its GPUs, ascending (empty for a CPU-only job or when none)
     * @param gpuUuids   the same GPUs by UUID
     * @param keptFor    BEHIND: the earlier jobs those GPUs are kept for
     * @param message    one line, as a person reads it
     */
    public record Fit(FitKind kind, String node, List<Integer> gpuIndices, List<String> gpuUuids, List<Long> keptFor,
                      String message) {

        public Fit {
            Objects.requireNonNull(kind, "kind");
            gpuIndices = List.copyOf(gpuIndices);
            gpuUuids = gpuUuids.stream().map(uuid -> uuid == null ? "" : uuid).toList();
            keptFor = keptFor.stream().distinct().sorted().toList();
        }
    }
}
