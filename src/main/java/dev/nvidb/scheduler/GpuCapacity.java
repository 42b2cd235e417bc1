package dev.nvidb.scheduler;

import java.util.Map;
import java.util.Objects;

/**
 * One GPU as the scheduler sees it: what the probe established this tick, or, for a node
 * that did not answer, what was last known. Reservations are not here: the scheduler takes
 * them from the running jobs' specs and assignments.
 *
 * @param index      the NVML index on its node
 * @param uuid       the GPU's UUID; required unless the state is {@link GpuState#UNKNOWN}
 * @param state      measured, blind, or unknown
 * @param totalMb    total memory in MiB; null only for an unknown GPU whose size was never seen
 * @param usedMb     memory in use on the card in MiB (all processes, the driver's own); null when unknown
 * @param externalMb memory held by processes the queue did not start, as measured (0 when none
 *                   or not measurable); the scheduler charges at least this much as foreign
 * @param jobUseMb   measured memory of each queue job on this GPU, by job id (empty on blind GPUs)
 * @param claims     other queues' live claims on this GPU (already charged in {@code externalMb}),
 *                   named by pending reasons and {@code job why} (docs/sharing.md)
 */
public record GpuCapacity(
        int index,
        String uuid,
        GpuState state,
        Long totalMb,
        Long usedMb,
        long externalMb,
        Map<Long, Long> jobUseMb,
        java.util.List<dev.nvidb.model.GpuClaim> claims) {

    /** A GPU no other queue claims. */
    public GpuCapacity(int index, String uuid, GpuState state, Long totalMb, Long usedMb, long externalMb,
                       Map<Long, Long> jobUseMb) {
        this(index, uuid, state, totalMb, usedMb, externalMb, jobUseMb, java.util.List.of());
    }

    public GpuCapacity {
        Objects.requireNonNull(state, "state");
        jobUseMb = Map.copyOf(jobUseMb);
        claims = claims == null ? java.util.List.of() : java.util.List.copyOf(claims);
        if (index < 0 || externalMb < 0 || negative(totalMb) || negative(usedMb)
                || jobUseMb.values().stream().anyMatch(mib -> mib < 0)) {
            throw new IllegalArgumentException("GPU " + index + ": index and memory figures cannot be negative");
        }
        if (state.known() && (uuid == null || totalMb == null || usedMb == null)) {
            throw new IllegalArgumentException("GPU " + index + ": a " + state + " GPU has a uuid, a total and a used figure");
        }
        if (state == GpuState.BLIND && !jobUseMb.isEmpty()) {
            throw new IllegalArgumentException("GPU " + index + ": a blind GPU has no per-job measurements");
        }
    }

    /** A GPU whose processes' memory the driver reports. */
    public static GpuCapacity measured(int index, String uuid, long totalMb, long usedMb, long externalMb,
                                       Map<Long, Long> jobUseMb) {
        return new GpuCapacity(index, uuid, GpuState.MEASURED, totalMb, usedMb, externalMb, jobUseMb);
    }

    /** A GPU whose driver reports used memory but not who holds it. */
    public static GpuCapacity blind(int index, String uuid, long totalMb, long usedMb) {
        return new GpuCapacity(index, uuid, GpuState.BLIND, totalMb, usedMb, 0, Map.of());
    }

    /**
     * A GPU whose state is not known this tick (its probe failed, or its node did not answer).
     *
     * @param lastKnownTotalMb its size when last seen, or null if never seen
     */
    public static GpuCapacity unknown(int index, String uuid, Long lastKnownTotalMb) {
        return new GpuCapacity(index, uuid, GpuState.UNKNOWN, lastKnownTotalMb, null, 0, Map.of());
    }

    /** This GPU with other queues' claims on it, charged in {@code externalMb}. */
    public GpuCapacity withClaims(java.util.List<dev.nvidb.model.GpuClaim> foreign) {
        return new GpuCapacity(index, uuid, state, totalMb, usedMb, externalMb, jobUseMb, foreign);
    }

    private static boolean negative(Long mib) {
        return mib != null && mib < 0;
    }
}
