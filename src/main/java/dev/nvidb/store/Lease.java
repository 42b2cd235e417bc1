package dev.nvidb.store;

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

    /** True when {@code candidate} holds an unexpired lease at {@code now}. */
    public boolean heldBy(String candidate, Instant now) {
        return candidate.equals(holder) && now.isBefore(expiresAt);
    }

    /** True when anyone holds an unexpired lease at {@code now}. */
    public boolean held(Instant now) {
        return holder != null && now.isBefore(expiresAt);
    }
}
