package dev.nvidb.agent;

import java.util.Objects;

/**
 * What a node did with one {@link KillRequest}.
 *
 * @param id      the job id
 * @param outcome see {@link Outcome}
 * @param reason  details (why not ours, why gone, what failed), or null
 */
public record KillReport(long id, Outcome outcome, String reason) {

    /** The result of a kill. */
    public enum Outcome {
        /** TERM was sent to the job's process group; KILL follows after the grace period if needed. */
        SIGNALLED,
        /** The wrapper was not running (already ended, or the node restarted since). */
        GONE,
        /** The pid now belongs to another process: nothing was signalled. */
        NOT_OURS,
        /** The node could not act on the entry (bad entry); nothing was signalled. */
        ERROR
    }

    public KillReport {
        Objects.requireNonNull(outcome, "outcome");
    }
}
