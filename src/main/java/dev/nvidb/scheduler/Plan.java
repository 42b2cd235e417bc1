package dev.nvidb.scheduler;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one tick should do, decided by {@link Scheduler#plan}. Every pending job of the input
 * appears in exactly one of {@link #placements()}, {@link #pendingReasons()},
 * {@link #unschedulable()} and {@link #dependencyFailed()}. Maps are ordered by job id.
 *
 * @param placements       jobs to start now, in the order they were decided (priority, then id)
 * @param pendingReasons   why each pending job that was not placed waits (job id → reason)
 * @param unschedulable    jobs no known GPU could ever hold: the engine fails them (job id → reason)
 * @param dependencyFailed jobs whose {@code --after} dependency ended badly: the engine fails them
 *                         with the alert {@code dependency_failed} (job id → reason)
 * @param timedOut         running jobs past their deadline, ascending: the engine kills them
 */
public record Plan(
        List<Placement> placements,
        Map<Long, String> pendingReasons,
        Map<Long, String> unschedulable,
        Map<Long, String> dependencyFailed,
        List<Long> timedOut) {

    public Plan {
        placements = List.copyOf(placements);
        pendingReasons = byId(pendingReasons);
        unschedulable = byId(unschedulable);
        dependencyFailed = byId(dependencyFailed);
        timedOut = timedOut.stream().sorted().toList();
    }

    /** The placement of job {@code jobId}, if this plan starts it. */
    public Optional<Placement> findPlacement(long jobId) {
        return placements.stream().filter(placement -> placement.jobId() == jobId).findFirst();
    }

    /** Why job {@code jobId} stays pending, if it does. */
    public Optional<String> findPendingReason(long jobId) {
        return Optional.ofNullable(pendingReasons.get(jobId));
    }

    /** The reasons in ascending job id: sorted once as primitives, then one insertion each. */
    private static Map<Long, String> byId(Map<Long, String> reasons) {
        long[] ids = new long[reasons.size()];
        int count = 0;
        for (Long id : reasons.keySet()) {
            ids[count++] = id;
        }
        Arrays.sort(ids);
        Map<Long, String> sorted = new LinkedHashMap<>(Math.max(16, (int) (ids.length / 0.75f) + 1));
        for (long id : ids) {
            sorted.put(id, reasons.get(id));
        }
        return Collections.unmodifiableMap(sorted);
    }
}
