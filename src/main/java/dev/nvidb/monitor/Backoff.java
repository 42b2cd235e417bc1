package dev.nvidb.monitor;

import java.time.Duration;

/**
 * How long the live monitor waits before probing a node again: the interval while it answers;
 * after a failure 5 s (or the interval, if longer), doubling with every further failure up to
 * {@link #MAX}, so a dead node costs one connection attempt per period and a node that comes
 * back is seen within a minute.
 *
 * @param interval the pause between probes of a node that answers
 */
public record Backoff(Duration interval) {

    /** The longest pause after failures. */
    public static final Duration MAX = Duration.ofSeconds(60);
    private static final Duration FIRST = Duration.ofSeconds(5);

    /** The pause after {@code failures} failures in a row (0: the node answered). */
    public Duration after(int failures) {
        if (failures <= 0) {
            return interval;
        }
        Duration base = interval.compareTo(FIRST) > 0 ? interval : FIRST;
        Duration delay = base;
        for (int i = 1; i < failures && delay.compareTo(MAX) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        Duration cap = interval.compareTo(MAX) > 0 ? interval : MAX;
        return delay.compareTo(cap) > 0 ? cap : delay;
    }
}
