package dev.nvidb.agent;

/**
 * The session and process group of a process on a node. A job's wrapper is a session
 * leader, so every process the job starts carries the wrapper's pid as its {@code sid}
 * (unless it deliberately starts a session of its own).
 *
 * @param sid  the session id (field 6 of /proc/PID/stat)
 * @param pgid the process group id (field 5)
 */
public record ProcessSession(long sid, long pgid) {
}
