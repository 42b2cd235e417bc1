package dev.nvidb.model;

import java.util.Locale;
import java.util.Optional;

/**
 * What an alert is about. The lower-case {@link #key()} is what the database stores and JSON
 * shows, and it starts each alert's dedup key ({@code job_failed:42:1}); a key this build does
 * not know reads back as text, never as an error ({@link #fromKey} is empty for it).
 */
public enum AlertKind {
    /** A job's command exited non-zero. */
    JOB_FAILED,
    /** A job's process vanished and it had no retries left. */
    JOB_LOST,
    /** A job's process vanished and it went back to pending for another attempt. */
    JOB_RETRIED,
    /** A job ran past its timeout. */
    JOB_TIMEOUT,
    /** A job can never run because a job it needs failed. */
    DEPENDENCY_FAILED,
    /** No configured node can ever fit the job. */
    JOB_UNSCHEDULABLE,
    /** A launch failed for sure; the job went back to pending. */
    LAUNCH_FAILED,
    /** A running job's processes hold memory on a GPU it was not given (it ignores CUDA_VISIBLE_DEVICES). */
    JOB_WRONG_GPU,
    /** A node stopped answering. */
    NODE_DOWN,
    /** The daemon's scheduled backup of the queue failed (once until a backup succeeds again). */
    BACKUP_FAILED,
    /** Jobs of a group failed quickly in a row: fail-fast held the group until it is released. */
    GROUP_HELD;

    /** The stored and shown name: {@code job_failed}, {@code node_down}, … */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind stored as {@code key}; empty for a key this build does not know. */
    public static Optional<AlertKind> fromKey(String key) {
        for (AlertKind kind : values()) {
            if (kind.key().equals(key)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }
}
