package dev.nvidb.store;

import dev.nvidb.model.JobState;
import java.util.EnumSet;
import java.util.Set;

/**
 * Which jobs {@link JobStore#listJobs} returns: by state (empty: all), by node, and at most the
 * {@code limit} newest (null: no limit). Results are always in id order.
 *
 * @param states jobs in any of these states; empty for every state
 * @param node   jobs whose current or last attempt is on this node, or null for all
 * @param limit  keep only the newest this many, or null
 * @param group  only jobs of this group, or null for all
 */
public record JobFilter(Set<JobState> states, String node, Integer limit, String group) {

    /** Jobs of any group. */
    public JobFilter(Set<JobState> states, String node, Integer limit) {
        this(states, node, limit, null);
    }

    public JobFilter {
        states = states.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(states));
        if (limit != null && limit < 0) {
            throw new IllegalArgumentException("limit cannot be negative");
        }
    }

    /** Every job. */
    public static JobFilter all() {
        return new JobFilter(Set.of(), null, null);
    }

    /** Jobs in the given states. */
    public static JobFilter inStates(JobState first, JobState... rest) {
        return new JobFilter(EnumSet.of(first, rest), null, null);
    }

    /** Pending and running jobs. */
    public static JobFilter active() {
        return inStates(JobState.PENDING, JobState.RUNNING);
    }

    public JobFilter onNode(String name) {
        return new JobFilter(states, name, limit, group);
    }

    public JobFilter newest(int count) {
        return new JobFilter(states, node, count, group);
    }

    public JobFilter inGroup(String name) {
        return new JobFilter(states, node, limit, name);
    }
}
