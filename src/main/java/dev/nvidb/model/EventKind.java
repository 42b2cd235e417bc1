package dev.nvidb.model;

import java.util.Locale;
import java.util.Optional;

/**
 * What an entry of the queue's event log records. The lower-case {@link #key()} is what the
 * database stores and JSON shows; a key this build does not know (written by a newer nvidb)
 * reads back as text, never as an error ({@link #fromKey} is empty for it).
 */
public enum EventKind {
    SUBMITTED,
    PLACED,
    STARTED,
    COMPLETED,
    FAILED,
    CANCELLED,
    TIMEOUT,
    LOST,
    REQUEUED,
    RETRIED,
    UNVERIFIED,
    VERIFIED,
    HELD,
    RELEASED,
    PRIORITY,
    PURGED,
    REAPED,
    DRAINED,
    RESUMED,
    IGNORED,
    UNIGNORED;

    /** The stored and shown name: {@code submitted}, {@code placed}, … */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind stored as {@code key}; empty for a key this build does not know. */
    public static Optional<EventKind> fromKey(String key) {
        for (EventKind kind : values()) {
            if (kind.key().equals(key)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    /** The event a job's move into the final {@code state} records (named after the state). */
    public static EventKind endedAs(JobState state) {
        return switch (state) {
            case COMPLETED -> COMPLETED;
            case FAILED -> FAILED;
            case CANCELLED -> CANCELLED;
            case TIMEOUT -> TIMEOUT;
            case LOST -> LOST;
            case PENDING, RUNNING -> throw new IllegalArgumentException(state.key() + " is not a final state");
        };
    }
}
