package dev.nvidb.queue;

import dev.nvidb.model.JobState;
import dev.nvidb.store.GroupStore;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

/**
 * One group as {@code queue groups} shows it.
 *
 * @param name          the group
 * @param counts        its jobs by state (every state, zeros included)
 * @param total         all its jobs
 * @param done          its completed jobs (progress is done / total)
 * @param maxRunning    an array's cap on running jobs, or null
 * @param quickFailures jobs that failed quickly in a row (fail-fast counts them)
 * @param heldAt        when fail-fast held it, or null
 * @param heldReason    why, or null
 */
public record GroupView(String name, Map<JobState, Integer> counts, int total, int done, Integer maxRunning,
                        int quickFailures, Instant heldAt, String heldReason) {

    static GroupView of(GroupStore.GroupRow row) {
        Map<JobState, Integer> counts = new EnumMap<>(JobState.class);
        for (JobState state : JobState.values()) {
            counts.put(state, row.counts().getOrDefault(state, 0));
        }
        int total = counts.values().stream().mapToInt(Integer::intValue).sum();
        return new GroupView(row.name(), counts, total, counts.get(JobState.COMPLETED), row.maxRunning(),
                row.quickFailures(), row.heldAt(), row.heldReason());
    }

    public boolean held() {
        return heldAt != null;
    }
}
