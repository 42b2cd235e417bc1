package dev.nvidb.scheduler;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.Job;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The VRAM budget of one GPU whose state is known:
 * {@code free = total − external − Σ charged − headroom}, where each queue job on the card is
 * charged the larger of its reservation and its measured use. The scheduler plans with it;
 * views can show the same figures.
 *
 * @param totalMb     the card's memory
 * @param externalMb  memory charged as foreign: what the queue did not start, plus used memory
 *                    that no measurement explains (blind GPUs: used memory beyond the queue's reservations)
 * @param reservedMb  Σ reservations of the queue's jobs on the card
 * @param queueUsedMb Σ measured use of the queue's jobs, or null on a blind GPU
 * @param chargedMb   Σ over the queue's jobs of max(reservation, measured use)
 * @param jobCount    queue jobs on the card (assigned to it, or measured on it)
 * @param freeMb      what a new job may still reserve (negative when the card is over budget)
 */
public record GpuBudget(long totalMb, long externalMb, long reservedMb, Long queueUsedMb, long chargedMb,
                        int jobCount, long freeMb) {

    /**
     * The budget of {@code gpu} on {@code node}, given the queue's running jobs (any node; those
     * assigned elsewhere are ignored) and the headroom.
     *
     * @throws IllegalArgumentException when the GPU's state is unknown
     */
    public static GpuBudget of(String node, GpuCapacity gpu, Collection<Job> running, long headroomMb) {
        if (!gpu.state().known()) {
            throw new IllegalArgumentException("GPU " + gpu.index() + " on " + node + " has no known state");
        }
        Map<Long, Long> reservations = new TreeMap<>();
        for (Job job : running) {
            if (assignedTo(job.assignment(), node, gpu)) {
                reservations.put(job.id(), job.spec().vramMb());
            }
        }
        return gpu.state() == GpuState.BLIND
                ? blind(gpu, reservations, headroomMb)
                : measured(gpu, reservations, headroomMb);
    }

    /** True when {@code assignment} gives the job this GPU (by UUID when both sides have one). */
    static boolean assignedTo(Assignment assignment, String node, GpuCapacity gpu) {
        if (assignment == null || !assignment.node().equals(node)) {
            return false;
        }
        if (gpu.uuid() != null && !assignment.gpuUuids().isEmpty()) {
            return assignment.gpuUuids().contains(gpu.uuid());
        }
        return assignment.gpuIds().contains(gpu.index());
    }

    private static GpuBudget measured(GpuCapacity gpu, Map<Long, Long> reservations, long headroomMb) {
        Set<Long> jobs = new TreeSet<>(reservations.keySet());
        jobs.addAll(gpu.jobUseMb().keySet());
        long reserved = 0;
        long used = 0;
        long charged = 0;
        for (long job : jobs) {
            long reservation = reservations.getOrDefault(job, 0L);
            long use = gpu.jobUseMb().getOrDefault(job, 0L);
            reserved += reservation;
            used += use;
            charged += Math.max(reservation, use);
        }
        // Memory in use that no queue job's measurement explains is foreign too (driver
        // contexts, processes the agent cannot see): charging it keeps placement fail-closed.
        long external = Math.max(gpu.externalMb(), gpu.usedMb() - used);
        long free = gpu.totalMb() - external - charged - headroomMb;
        return new GpuBudget(gpu.totalMb(), external, reserved, used, charged, jobs.size(), free);
    }

    private static GpuBudget blind(GpuCapacity gpu, Map<Long, Long> reservations, long headroomMb) {
        long reserved = reservations.values().stream().mapToLong(Long::longValue).sum();
        // Each queue job is credited up to its reservation: that part of the used memory is
        // assumed to be the job's own, the rest is foreign. A job is never charged twice.
        long external = Math.max(gpu.externalMb(), Math.max(0, gpu.usedMb() - reserved));
        long free = gpu.totalMb() - external - reserved - headroomMb;
        return new GpuBudget(gpu.totalMb(), external, reserved, null, reserved, reservations.size(), free);
    }
}
