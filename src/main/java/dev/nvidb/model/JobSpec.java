package dev.nvidb.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a user asked for when submitting a job; it does not change while the job exists
 * (priority and the note, which do change, live on {@link Job}).
 *
 * @param name           display name (defaults to the command's first word)
 * @param command        the shell command line, run with {@code bash -c} semantics on the node
 * @param gpus           number of GPUs, all on one node; 0 for a CPU-only job
 * @param vramMb         MiB reserved on each GPU (0: no reservation; the job is still charged what it uses)
 * @param node           the node the job must run on, or null for any
 * @param workdir        the directory to run in, as typed ({@code ~} means the node's home), or null for the job dir
 * @param environment    extra environment variables, in the order given
 * @param dependencies   jobs this one waits for
 * @param timeoutSeconds wall-clock limit once running, or null
 * @param maxRetries     how often a job whose process vanished is started again
 * @param tags           free labels
 * @param submitter      who submitted it ({@code user@host})
 * @param sweep          its group, array cell and key ({@link Sweep#NONE} outside a sweep)
 * @param policy         exclusive GPUs and OOM retries ({@link RunPolicy#DEFAULT}: shared, none); the
 *                       only part of a spec that changes is {@code vramMb}, raised by an OOM retry
 */
public record JobSpec(
        String name,
        String command,
        int gpus,
        long vramMb,
        String node,
        String workdir,
        Map<String, String> environment,
        List<Dependency> dependencies,
        Long timeoutSeconds,
        int maxRetries,
        List<String> tags,
        String submitter,
        Sweep sweep,
        RunPolicy policy) {

    public JobSpec {
        sweep = sweep == null ? Sweep.NONE : sweep;
        policy = policy == null ? RunPolicy.DEFAULT : policy;
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(command, "command");
        if (gpus < 0 || vramMb < 0 || maxRetries < 0) {
            throw new IllegalArgumentException("gpus, vram and retries cannot be negative");
        }
        environment = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        dependencies = List.copyOf(dependencies);
        tags = List.copyOf(tags);
    }

    /** A job outside any sweep (no group, array cell or key). */
    public JobSpec(String name, String command, int gpus, long vramMb, String node, String workdir,
                   Map<String, String> environment, List<Dependency> dependencies, Long timeoutSeconds,
                   int maxRetries, List<String> tags, String submitter) {
        this(name, command, gpus, vramMb, node, workdir, environment, dependencies, timeoutSeconds, maxRetries,
                tags, submitter, Sweep.NONE, RunPolicy.DEFAULT);
    }

    /** A job with the default {@link RunPolicy} (shared GPUs, no OOM retry). */
    public JobSpec(String name, String command, int gpus, long vramMb, String node, String workdir,
                   Map<String, String> environment, List<Dependency> dependencies, Long timeoutSeconds,
                   int maxRetries, List<String> tags, String submitter, Sweep sweep) {
        this(name, command, gpus, vramMb, node, workdir, environment, dependencies, timeoutSeconds, maxRetries,
                tags, submitter, sweep, RunPolicy.DEFAULT);
    }

    /** This spec with another sweep. */
    public JobSpec withSweep(Sweep newSweep) {
        return new JobSpec(name, command, gpus, vramMb, node, workdir, environment, dependencies, timeoutSeconds,
                maxRetries, tags, submitter, newSweep, policy);
    }

    /** This spec with another run policy. */
    public JobSpec withPolicy(RunPolicy newPolicy) {
        return new JobSpec(name, command, gpus, vramMb, node, workdir, environment, dependencies, timeoutSeconds,
                maxRetries, tags, submitter, sweep, newPolicy);
    }

    /** This spec with other dependencies. */
    public JobSpec withDependencies(List<Dependency> newDependencies) {
        return new JobSpec(name, command, gpus, vramMb, node, workdir, environment, newDependencies, timeoutSeconds,
                maxRetries, tags, submitter, sweep, policy);
    }

    /** True for a job that needs no GPU (bounded by a per-node count instead of memory). */
    public boolean cpuOnly() {
        return gpus == 0;
    }
}
