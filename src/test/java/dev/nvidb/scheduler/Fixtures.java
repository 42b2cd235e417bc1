package dev.nvidb.scheduler;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.Dependency;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import dev.nvidb.model.JobState;
import dev.nvidb.model.JobStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Builders that keep the scheduler's tests to the point: jobs, GPUs, nodes, and one-call planning. */
final class Fixtures {

    static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
    static final long GIB = 1024;

    private Fixtures() {
    }

    static JobBuilder job(long id) {
        return new JobBuilder(id);
    }

    static String uuid(int index) {
        return "GPU-" + index;
    }

    /** An idle measured GPU (nothing in use). */
    static GpuCapacity gpu(int index, long totalMb) {
        return GpuCapacity.measured(index, uuid(index), totalMb, 0, 0, Map.of());
    }

    /** A measured GPU with foreign processes holding {@code externalMb} and nothing else in use. */
    static GpuCapacity gpuWithForeign(int index, long totalMb, long externalMb) {
        return GpuCapacity.measured(index, uuid(index), totalMb, externalMb, externalMb, Map.of());
    }

    /** A measured GPU whose used memory is foreign processes plus the queue jobs' measured use. */
    static GpuCapacity gpuWithJobs(int index, long totalMb, long externalMb, Map<Long, Long> jobUseMb) {
        long used = externalMb + jobUseMb.values().stream().mapToLong(Long::longValue).sum();
        return GpuCapacity.measured(index, uuid(index), totalMb, used, externalMb, jobUseMb);
    }

    static NodeCapacity node(String name, GpuCapacity... gpus) {
        return NodeCapacity.answered(name, List.of(gpus));
    }

    static Plan plan(List<NodeCapacity> nodes, Job... jobs) {
        return plan(SchedulingPolicy.defaults(), nodes, List.of(jobs), Map.of());
    }

    static Plan plan(SchedulingPolicy policy, List<NodeCapacity> nodes, Job... jobs) {
        return plan(policy, nodes, List.of(jobs), Map.of());
    }

    /** Plans with the pending and running jobs among {@code jobs}; {@code others}: states of other jobs. */
    static Plan plan(SchedulingPolicy policy, List<NodeCapacity> nodes, List<Job> jobs, Map<Long, JobState> others) {
        List<Job> pending = jobs.stream().filter(job -> job.state() == JobState.PENDING).toList();
        List<Job> running = jobs.stream().filter(job -> job.state() == JobState.RUNNING).toList();
        return Scheduler.plan(new QueueSnapshot(pending, running, others), nodes, policy, NOW);
    }

    /** "gpu-a:1" or "gpu-a:0,1" or "gpu-a:cpu" for a placed job; the pending reason otherwise. */
    static String outcome(Plan plan, long jobId) {
        return plan.findPlacement(jobId).map(Fixtures::where)
                .or(() -> plan.findPendingReason(jobId))
                .or(() -> java.util.Optional.ofNullable(plan.unschedulable().get(jobId)).map(why -> "unschedulable: " + why))
                .or(() -> java.util.Optional.ofNullable(plan.dependencyFailed().get(jobId)).map(why -> "dependency failed: " + why))
                .orElse("missing from the plan");
    }

    static String where(Placement placement) {
        if (placement.gpuIndices().isEmpty()) {
            return placement.node() + ":cpu";
        }
        return placement.node() + ":" + String.join(",", placement.gpuIndices().stream().map(String::valueOf).toList());
    }

    /** A job under construction: one GPU, no reservation, priority 0, no constraints. */
    static final class JobBuilder {
        private final long id;
        private int gpus = 1;
        private long vramMb;
        private String node;
        private final List<Dependency> dependencies = new ArrayList<>();
        private Long timeoutSeconds;
        private int priority;
        private String holdReason;
        private Instant startedAt = NOW.minusSeconds(60);
        private boolean exclusive;
        private boolean allowSlurm;

        JobBuilder(long id) {
            this.id = id;
        }

        JobBuilder gpus(int count) {
            this.gpus = count;
            return this;
        }

        JobBuilder vram(long mib) {
            this.vramMb = mib;
            return this;
        }

        JobBuilder node(String name) {
            this.node = name;
            return this;
        }

        JobBuilder priority(int value) {
            this.priority = value;
            return this;
        }

        JobBuilder after(long... ids) {
            Arrays.stream(ids).forEach(other -> dependencies.add(new Dependency(other, true)));
            return this;
        }

        JobBuilder afterAny(long... ids) {
            Arrays.stream(ids).forEach(other -> dependencies.add(new Dependency(other, false)));
            return this;
        }

        JobBuilder held(String reason) {
            this.holdReason = reason;
            return this;
        }

        /** {@code --exclusive}: only GPUs with no process at all, and none beside it while it runs. */
        JobBuilder allowSlurm() {
            this.allowSlurm = true;
            return this;
        }

        JobBuilder exclusive() {
            this.exclusive = true;
            return this;
        }

        JobBuilder timeout(long seconds) {
            this.timeoutSeconds = seconds;
            return this;
        }

        JobBuilder startedAt(Instant when) {
            this.startedAt = when;
            return this;
        }

        Job pending() {
            return new Job(id, spec(), new JobStatus.Pending(holdReason), priority, NOW.minusSeconds(600), 0, null,
                    null, null, null);
        }

        /** A running job on {@code onNode}, on GPUs {@code gpuIds} (none for a CPU-only job). */
        Job running(String onNode, int... gpuIds) {
            List<Integer> indices = Arrays.stream(gpuIds).boxed().toList();
            Assignment assignment = new Assignment(onNode, indices, indices.stream().map(Fixtures::uuid).toList(),
                    1, "token-" + id);
            return new Job(id, spec(), new JobStatus.Running(assignment, startedAt), priority, NOW.minusSeconds(600), 1,
                    null, null, null, null);
        }

        private JobSpec spec() {
            return new JobSpec("job-" + id, "python train.py", gpus, vramMb, node, null, Map.of(), dependencies,
                    timeoutSeconds, 0, List.of(), "alice@laptop", dev.nvidb.model.Sweep.NONE,
                    new dev.nvidb.model.RunPolicy(exclusive, 0, allowSlurm));
        }
    }
}
