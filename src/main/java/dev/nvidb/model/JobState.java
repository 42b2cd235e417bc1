package dev.nvidb.model;

import java.util.Locale;

/**
 * Where a job is in its life, as a flat key: what JSON, tables, the command line and the
 * database name. {@link JobStatus} is the same with the facts of each state attached; code that
 * branches on a job's state matches on that. A held job is a {@link #PENDING} job with a
 * reason; every state after {@link #RUNNING} is final until an explicit requeue.
 *
 * <pre>
 *   PENDING ──place──► RUNNING ──exit 0──► COMPLETED
 *      ▲                  │ ├──exit ≠ 0──► FAILED
 *      │ retry / requeue  │ ├──vanished──► LOST  (or back to PENDING while retries remain)
 *      └──────────────────┘ ├──deadline──► TIMEOUT
 *   PENDING/RUNNING ──cancel──► CANCELLED
 * </pre>
 */
public enum JobState {
    PENDING,
    RUNNING,
    COMPLETED,
    FAILED,
    CANCELLED,
    TIMEOUT,
    LOST;

    /** The lower-case name used in JSON, tables and on the command line. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True for states a job only leaves by an explicit requeue. */
    public boolean finished() {
        return this != PENDING && this != RUNNING;
    }

    /** True when the job ended without success (what {@code --after} dependents cannot run after). */
    public boolean endedBadly() {
        return finished() && this != COMPLETED;
    }
}
