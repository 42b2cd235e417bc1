package dev.nvidb.queue;

import dev.nvidb.model.JobState;
import java.util.EnumSet;
import java.util.Set;

/**
 * Which jobs {@link StatusReading#listJobs} returns: by state (empty: all), by node (as typed:
 * exact name or unique prefix), and at most the {@code limit} newest. Results are in id order.
 *
 * @param states jobs in any of these states; empty for every state
 * @param node   jobs whose current or last attempt is on this node, or null for all
 * @param limit  keep only the newest this many, or null
 * @param group  only jobs of this group, or null for all
 */
public record JobSelection(Set<JobState> states, String node, Integer limit, String group) {

    public JobSelection {
        states = states.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(states));
    }

    /** Jobs of any group. */
    public JobSelection(Set<JobState> states, String node, Integer limit) {
        this(states, node, limit, null);
    }

    /** Every job. */
    public static JobSelection all() {
        return new JobSelection(Set.of(), null, null);
    }
}
