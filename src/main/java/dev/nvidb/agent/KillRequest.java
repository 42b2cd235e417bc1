package dev.nvidb.agent;

import java.time.Duration;
import java.util.Objects;

/**
 * Asks a node to stop a job (a cancel, a timeout, or a pending reap of a job cancelled while
 * its node was unreachable). The node checks the recorded identity first and never signals
 * a process that is not this job's wrapper; then it sends TERM to the process group and KILL
 * after {@code graceSeconds} if the job is still there, without making the reply wait.
 *
 * @param id           the job id
 * @param dir          the attempt directory on the node
 * @param pid          the wrapper's pid, as recorded at launch
 * @param startTicks   the wrapper's start time in clock ticks, as recorded at launch
 * @param bootId       the node's boot id at launch (null when the node has none)
 * @param graceSeconds how long the job may take to stop after TERM
 * @param token        the attempt's launch token, or null: the wrapper carries it, so a job whose
 *                     directory was removed or renamed can still be told from another process
 */
public record KillRequest(long id, String dir, long pid, long startTicks, String bootId, double graceSeconds,
                          String token) {

    public KillRequest {
        Objects.requireNonNull(dir, "dir");
        if (pid <= 0 || graceSeconds < 0) {
            throw new IllegalArgumentException("a kill needs a positive pid and a grace period of 0 s or more");
        }
    }

    /** A kill of a wrapper known by its directory and identity only. */
    public KillRequest(long id, String dir, long pid, long startTicks, String bootId, double graceSeconds) {
        this(id, dir, pid, startTicks, bootId, graceSeconds, null);
    }

    /** This kill, naming the attempt's launch token. */
    public KillRequest withToken(String launchToken) {
        return new KillRequest(id, dir, pid, startTicks, bootId, graceSeconds, launchToken);
    }

    /** A kill of the wrapper a launch report or job report named. */
    public static KillRequest of(long id, String dir, WrapperProcess wrapper, Duration grace) {
        return new KillRequest(id, dir, wrapper.pid(), wrapper.startTicks(), wrapper.bootId(),
                grace.toMillis() / 1000.0);
    }
}
