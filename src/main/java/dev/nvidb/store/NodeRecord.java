package dev.nvidb.store;

import java.time.Duration;
import java.time.Instant;

/**
 * What the queue remembers about a node between ticks: a person's drain and ignore, the last
 * probe, and the back-off bookkeeping for a node that stopped answering.
 *
 * @param name                the node's name (as in config)
 * @param drainedAt           when it was drained (no new placements), or null
 * @param ignoredAt           when it was ignored (not probed, not shown), or null
 * @param lastProbeAt         when it was last probed, answered or not, or null
 * @param lastSeenAt          when it last answered, or null
 * @param lastProbe           the last answer as JSON text, or null
 * @param consecutiveFailures probes that failed since the last answer
 * @param backoffUntil        no probe before this time, or null
 * @param lastError           why the last probe failed, or null
 * @param bootId              the node's boot id at its last answer, or null
 */
public record NodeRecord(String name, Instant drainedAt, Instant ignoredAt, Instant lastProbeAt, Instant lastSeenAt,
                         String lastProbe, int consecutiveFailures, Instant backoffUntil, String lastError,
                         String bootId) {

    public boolean drained() {
        return drainedAt != null;
    }

    public boolean ignored() {
        return ignoredAt != null;
    }

    /** True while the back-off says not to probe yet. */
    public boolean backingOff(Instant now) {
        return backoffUntil != null && now.isBefore(backoffUntil);
    }

    /**
     * True while the back-off says not to probe yet, where a back-off never lasts longer than
     * {@code longest}: one ending further ahead than that (plus {@link Lease#SKEW_TOLERANCE}) was
     * written by a clock that was ahead, or before this one stepped back, and is over.
     */
    public boolean backingOff(Instant now, Duration longest) {
        return backingOff(now) && !backoffUntil.isAfter(now.plus(longest).plus(Lease.SKEW_TOLERANCE));
    }
}
