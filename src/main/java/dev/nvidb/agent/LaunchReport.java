package dev.nvidb.agent;

import java.util.Objects;

/**
 * What a node did with one {@link LaunchRequest}.
 *
 * @param id      the job id
 * @param attempt the attempt number
 * @param outcome see {@link Outcome}
 * @param wrapper the wrapper's identity when started or adopted (its fields may be unknown for an
 *                adopted attempt that had already ended), else null
 * @param error   one line saying why the launch failed (disk full, permission denied, another token) or was lost, else null
 */
public record LaunchReport(long id, int attempt, Outcome outcome, WrapperProcess wrapper, String error) {

    /** The result of a launch. */
    public enum Outcome {
        /** A new wrapper was started for this token. */
        STARTED,
        /** The directory already held this token and its wrapper: nothing new was started. */
        ADOPTED,
        /** Nothing was started; {@code error} says why. */
        FAILED,
        /**
         * Nothing was started because the job no longer fits its GPUs: another queue claimed them since
         * the plan ({@code error} names the claims). Not a failure: the job is planned again.
         */
        LOST
    }

    public LaunchReport {
        Objects.requireNonNull(outcome, "outcome");
    }
}
