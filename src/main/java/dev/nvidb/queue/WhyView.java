package dev.nvidb.queue;

import dev.nvidb.scheduler.Explanation;
import java.time.Instant;
import java.util.Map;

/**
 * What {@code nvidb job why} shows: the job, and for a pending one the scheduler's explanation
 * with when each node's figures were measured.
 *
 * @param job         the job as {@code job show} sees it
 * @param explanation why it waits and where it would fit first; null when the job is not pending
 * @param lastSeen    when each node last answered (the figures are from that answer), by name
 * @param at          when the explanation was made
 */
public record WhyView(JobView job, Explanation explanation, Map<String, Instant> lastSeen, Instant at) {

    public WhyView {
        lastSeen = Map.copyOf(lastSeen);
    }

    /** True when the job was pending and is explained. */
    public boolean explained() {
        return explanation != null;
    }
}
