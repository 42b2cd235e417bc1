package dev.nvidb.agent;

import java.util.Objects;

/**
 * Asks a node to remove the directory of a job that ended long ago (retention):
 * {@code <job_root>/<queue>/<job>}, every attempt in it. The node removes only a real directory
 * of its user exactly there, without following a symbolic link, and never while a process of
 * one of its attempts is alive.
 *
 * @param id          the job id
 * @param dir         the job's directory on the node ({@code ~} is the node's home)
 * @param lastAttempt the job's last attempt as the queue knows it, or null: a higher attempt in
 *                    the directory means the job was requeued and launched again since, and
 *                    nothing is removed
 */
public record DirRemoval(long id, String dir, Integer lastAttempt) {

    public DirRemoval {
        Objects.requireNonNull(dir, "dir");
    }

    /** A removal without an attempt check. */
    public DirRemoval(long id, String dir) {
        this(id, dir, null);
    }

    /** The removal of the job directory that holds {@code attemptDir} ({@code …/<queue>/<job>/<attempt>}). */
    public static DirRemoval ofAttempt(long id, String attemptDir) {
        int slash = attemptDir.lastIndexOf('/');
        if (slash <= 0) {
            throw new IllegalArgumentException("not an attempt directory: " + attemptDir);
        }
        Integer attempt = null;
        try {
            attempt = Integer.valueOf(attemptDir.substring(slash + 1));
        } catch (NumberFormatException notANumber) {
            // Not the queue's layout: the node checks the directory anyway.
        }
        return new DirRemoval(id, attemptDir.substring(0, slash), attempt);
    }
}
