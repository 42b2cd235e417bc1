package dev.nvidb.agent;

import java.util.Objects;

/**
 * Asks a node to remove the directory of a job that ended long ago (retention):
 * {@code <job_root>/<queue>/<job>}, every attempt in it. The node removes only a real directory
 * of its user exactly there, without following a symbolic link, and never while a process of
 * one of its attempts is alive.
 *
 * @param id  the job id
 * @param dir the job's directory on the node ({@code ~} is the node's home)
 */
public record DirRemoval(long id, String dir) {

    public DirRemoval {
        Objects.requireNonNull(dir, "dir");
    }

    /** The removal of the job directory that holds {@code attemptDir} ({@code …/<queue>/<job>/<attempt>}). */
    public static DirRemoval ofAttempt(long id, String attemptDir) {
        int slash = attemptDir.lastIndexOf('/');
        if (slash <= 0) {
            throw new IllegalArgumentException("not an attempt directory: " + attemptDir);
        }
        return new DirRemoval(id, attemptDir.substring(0, slash));
    }
}
