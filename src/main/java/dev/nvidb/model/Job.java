package dev.nvidb.model;

import java.time.Instant;
import java.util.Objects;

/**
 * A job as the queue records it: what was asked ({@link JobSpec}), where it is in its life
 * ({@link JobStatus}, whose variants carry the facts of their state), and the two free-text
 * fields with different authors: {@code note} (the user's) and {@code progress} (the last line
 * the job wrote to its status file). The flat accessors ({@link #state()}, {@link #assignment()},
 * {@link #exitCode()}, …) are for tables and JSON; code that branches on the state matches on
 * {@link #status()} instead.
 *
 * @param id         queue-wide id, increasing with submission order (FIFO among equal priorities)
 * @param spec       what was asked
 * @param status     where it is, with what belongs to that state
 * @param priority   higher goes first
 * @param createdAt  submission time
 * @param attempt    attempts made so far (0 before the first placement); a placement's attempt is this one
 * @param lastError  why it failed, was lost, retried or could not be launched, or null
 * @param note       the user's note, or null
 * @param progress   the job's own last status line, or null
 * @param result     the result JSON (text) collected from result.json or set by a client, or null
 */
public record Job(
        long id,
        JobSpec spec,
        JobStatus status,
        int priority,
        Instant createdAt,
        int attempt,
        String lastError,
        String note,
        String progress,
        String result) {

    public Job {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt " + attempt);
        }
        status.placement().ifPresent(placed -> {
            if (placed.attempt() != attempt) {
                throw new IllegalArgumentException("job " + id + " is at attempt " + attempt
                        + " but its placement is attempt " + placed.attempt());
            }
        });
    }

    /** The same job with another status (what a transition makes of it). */
    public Job withStatus(JobStatus newStatus) {
        return new Job(id, spec, newStatus, priority, createdAt, attempt, lastError, note, progress, result);
    }

    /** The same job with another spec (the store attaches dependencies read from their own table). */
    public Job withSpec(JobSpec newSpec) {
        return new Job(id, newSpec, status, priority, createdAt, attempt, lastError, note, progress, result);
    }

    /** The flat key of {@link #status()}. */
    public JobState state() {
        return status.state();
    }

    /** Pending and held by a person. */
    public boolean held() {
        return status instanceof JobStatus.Pending pending && pending.held();
    }

    /** Why a person holds this pending job, or null. */
    public String holdReason() {
        return status instanceof JobStatus.Pending pending ? pending.holdReason() : null;
    }

    /** Why it ended badly ({@link JobStatus.Ended#failureClass}), or null. */
    public FailureClass failureClass() {
        return status instanceof JobStatus.Ended ended ? ended.failureClass() : null;
    }

    /** The current or last attempt's placement, or null while pending or when it never ran. */
    public Assignment assignment() {
        return status.placement().orElse(null);
    }

    /** When the current or last attempt was placed, or null while pending or when it never ran. */
    public Instant startedAt() {
        if (status instanceof JobStatus.Running running) {
            return running.startedAt();
        }
        return status instanceof JobStatus.Ended ended ? ended.startedAt() : null;
    }

    /** When it ended, or null while pending or running. */
    public Instant finishedAt() {
        return status instanceof JobStatus.Ended ended ? ended.finishedAt() : null;
    }

    /** The command's exit status once it ended with one, or null. */
    public Integer exitCode() {
        return status instanceof JobStatus.Ended ended ? ended.exitCode() : null;
    }
}
