package dev.nvidb.store;

import java.time.Duration;
import java.time.Instant;

/**
 * The tick lease as stored: who holds it, until when, and a generation that grows with every
 * acquisition (a fencing token: work stamped with an older generation came from a former holder).
 *
 * @param holder     the holder's id, or null when released
 * @param acquiredAt when the current holder took it, or null
 * @param expiresAt  when it lapses unless renewed
 * @param generation how many times it has been acquired
 */
public record Lease(String holder, Instant acquiredAt, Instant expiresAt, long generation) {

    /**
     * How far ahead of this machine's clock a stored time may be before it counts as written by
     * a clock that was ahead (or before this one stepped back), rather than by ordinary jitter.
     */
    public static final Duration SKEW_TOLERANCE = Duration.ofSeconds(5);

    /** True when {@code candidate} holds an unexpired lease at {@code now}. */
    public boolean heldBy(String candidate, Instant now) {
        return candidate.equals(holder) && now.isBefore(expiresAt);
    }

    /** True when anyone holds an unexpired lease at {@code now}. */
    public boolean held(Instant now) {
        return holder != null && now.isBefore(expiresAt);
    }

    /**
     * True when the lease may be taken at {@code now}: released, expired, or expiring further
     * ahead than its holder's {@code length} (plus {@link #SKEW_TOLERANCE}) allows, which only a
     * clock that was ahead of this one can have written; a holder renews to now + length.
     */
    public boolean free(Instant now, Duration length) {
        return !held(now) || fromTheFuture(now, length);
    }

    /** True when the expiry lies further ahead than {@code length} (plus the tolerance) from {@code now}. */
    public boolean fromTheFuture(Instant now, Duration length) {
        return holder != null && expiresAt.isAfter(now.plus(length).plus(SKEW_TOLERANCE));
    }
}
