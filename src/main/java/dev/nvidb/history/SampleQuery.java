package dev.nvidb.history;

import java.time.Instant;

/**
 * Which GPU samples to read: one session, optionally one node, one GPU and a time range
 * ({@code from} inclusive, {@code to} exclusive; null is open), at most {@code limit} rows.
 */
public record SampleQuery(long sessionId, String node, Integer gpu, Instant from, Instant to, int limit) {

    /** The most rows one query returns. */
    public static final int MAX_LIMIT = 1_000_000;

    public SampleQuery {
        if (limit <= 0 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT + ", got " + limit);
        }
    }

    /** Every sample of a session, up to the largest limit. */
    public static SampleQuery session(long sessionId) {
        return new SampleQuery(sessionId, null, null, null, null, MAX_LIMIT);
    }
}
