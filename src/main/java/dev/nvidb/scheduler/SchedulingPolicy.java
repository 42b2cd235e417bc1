package dev.nvidb.scheduler;

import java.util.Objects;

/**
 * The queue settings the scheduler obeys (the engine builds this from {@code queue:} in the
 * configuration).
 *
 * @param headroomMb        MiB kept free on every GPU beyond what the jobs are charged
 * @param placement         spread jobs over GPUs or pack them
 * @param maxJobsPerGpu     queue jobs sharing one GPU at most; 0 = no limit
 * @param maxCpuJobsPerNode CPU-only queue jobs per node at most; 0 = no limit
 * @param slurmOverflow     any job the workstations cannot place now may go to a Slurm node
 */
public record SchedulingPolicy(long headroomMb, PlacementMode placement, int maxJobsPerGpu, int maxCpuJobsPerNode,
                               boolean slurmOverflow) {

    /** A policy without Slurm overflow. */
    public SchedulingPolicy(long headroomMb, PlacementMode placement, int maxJobsPerGpu, int maxCpuJobsPerNode) {
        this(headroomMb, placement, maxJobsPerGpu, maxCpuJobsPerNode, false);
    }

    /** The same policy with Slurm overflow on or off. */
    public SchedulingPolicy withSlurmOverflow(boolean overflow) {
        return new SchedulingPolicy(headroomMb, placement, maxJobsPerGpu, maxCpuJobsPerNode, overflow);
    }

    public SchedulingPolicy {
        Objects.requireNonNull(placement, "placement");
        if (headroomMb < 0 || maxJobsPerGpu < 0 || maxCpuJobsPerNode < 0) {
            throw new IllegalArgumentException("headroom and job limits cannot be negative");
        }
    }

    /** The built-in defaults: 512 MiB headroom, spread, no per-GPU job limit, 4 CPU jobs per node. */
    public static SchedulingPolicy defaults() {
        return new SchedulingPolicy(512, PlacementMode.SPREAD, 0, 4);
    }

    /** The same policy with another placement mode. */
    public SchedulingPolicy withPlacement(PlacementMode mode) {
        return new SchedulingPolicy(headroomMb, mode, maxJobsPerGpu, maxCpuJobsPerNode);
    }

    /** The same policy with another headroom. */
    public SchedulingPolicy withHeadroomMb(long mib) {
        return new SchedulingPolicy(mib, placement, maxJobsPerGpu, maxCpuJobsPerNode);
    }

    /** The same policy with another per-GPU job limit. */
    public SchedulingPolicy withMaxJobsPerGpu(int jobs) {
        return new SchedulingPolicy(headroomMb, placement, jobs, maxCpuJobsPerNode);
    }

    /** The same policy with another per-node CPU job limit. */
    public SchedulingPolicy withMaxCpuJobsPerNode(int jobs) {
        return new SchedulingPolicy(headroomMb, placement, maxJobsPerGpu, jobs);
    }
}
