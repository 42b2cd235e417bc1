package dev.nvidb.model;

import java.time.Instant;
import java.util.Objects;

/**
 * A job as the queue records it: what was asked ({@link JobSpec}), where it is in its life,
 * and the two free-text fields with different authors: {@code note} (the user's) and
 * {@code progress} (the last line the job wrote to its status file).
 *
 * @param id          queue-wide id, increasing with submission order (FIFO among equal priorities)
 * @param spec        what was asked
 * @param state       where it is
 * @param priority    higher goes first
 * @param createdAt   submission time
 * @param startedAt   when the current attempt was placed, or null
 * @param finishedAt  when it reached a final state, or null
 * @param assignment  the current attempt's placement, or null while pending with no attempt yet
 * @param attempt     attempts made so far (0 before the first placement)
 * @param exitCode    the command's exit status once finished, or null
 * @param lastError   why it failed, was lost, or could not be launched, or null
 * @param note        the user's note, or null
 * @param progress    the job's own last status line, or null
 * @param result      the result JSON (text) collected from result.json or set by a client, or null
 * @param holdReason  why a pending job is held by a person (not by the scheduler), or null
 */
public record Job(
        long id,
        JobSpec spec,
        JobState state,
        int priority,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        Assignment assignment,
        int attempt,
        Integer exitCode,
        String lastError,
        String note,
        String progress,
        String result,
        String holdReason) {

    public Job {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(createdAt, "createdAt");
        if (state == JobState.RUNNING && assignment == null) {
            throw new IllegalArgumentException("a running job has an assignment");
        }
    }

    public boolean held() {
        return state == JobState.PENDING && holdReason != null;
    }
}
