package dev.nvidb.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that stands still until the test moves it, so timeouts, back-off and lost-after are
 * driven exactly, without sleeps. Safe to read from several threads.
 */
public final class FakeClock extends Clock {

    private volatile Instant now;

    public FakeClock(Instant start) {
        this.now = start;
    }

    /** A clock at a fixed, round instant. */
    public static FakeClock atDefaultStart() {
        return new FakeClock(Instant.parse("2026-01-05T09:00:00Z"));
    }

    /** Moves the clock forward. */
    public synchronized void advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("a test clock only moves forward: " + by);
        }
        now = now.plus(by);
    }

    /**
     * Moves the clock by any amount, backwards too, as a wall clock stepped by NTP or by hand
     * does (for tests of clock skew; everything else moves forward with {@link #advance}).
     */
    public synchronized void jump(Duration by) {
        now = now.plus(by);
    }

    public void advanceSeconds(long seconds) {
        advance(Duration.ofSeconds(seconds));
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
