package dev.nvidb.store;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import java.util.Objects;

/**
 * What a caller believes a job is, for a compare-and-set: its state and its attempt number.
 * The attempt grows with every placement, so a late report about attempt 1 cannot touch
 * attempt 2 even when both are {@code running}.
 *
 * @param state   the state the caller saw
 * @param attempt the attempt the caller saw
 */
public record Expected(JobState state, int attempt) {

    public Expected {
        Objects.requireNonNull(state, "state");
    }

    /** What {@code job} is now. */
    public static Expected of(Job job) {
        return new Expected(job.state(), job.attempt());
    }
}
