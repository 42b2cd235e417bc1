package dev.nvidb.model;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a job is in its life, each variant with exactly the facts that belong to it: a pending
 * job may be held, a running job has its placement and start time, an ended job has its outcome,
 * end time and, when its command exited, the exit status. So "pending with an exit code" or
 * "running without a node" cannot be written. {@link JobState} stays the flat key used in JSON,
 * tables and the database; {@link #state()} gives it.
 *
 * <pre>
 *   Pending ──place──► Running ──exit 0──► Ended(COMPLETED)
 *      ▲                  │ ├──exit ≠ 0──► Ended(FAILED)
 *      │ retry / requeue  │ ├──vanished──► Ended(LOST)  (or back to Pending while retries remain)
 *      └──────────────────┘ ├──deadline──► Ended(TIMEOUT)
 *   Pending/Running ──cancel──► Ended(CANCELLED)
 * </pre>
 */
public sealed interface JobStatus permits JobStatus.Pending, JobStatus.Running, JobStatus.Ended {

    /** The flat key of this status. */
    JobState state();

    /** The current or, once ended, last attempt's placement, if it had one. */
    Optional<Assignment> placement();

    /** A pending job that is not held: what a submit and a requeue make. */
    Pending PENDING = new Pending(null);

    /**
     * Waiting for a placement; held by a person while {@code holdReason} is set.
     *
     * @param holdReason why a person (not the scheduler) holds it, or null
     */
    record Pending(String holdReason) implements JobStatus {

        public Pending {
            if (holdReason != null && holdReason.isBlank()) {
                throw new IllegalArgumentException("a hold has a reason");
            }
        }

        /** Held by a person: the scheduler leaves it alone until a requeue releases it. */
        public boolean held() {
            return holdReason != null;
        }

        @Override
        public JobState state() {
            return JobState.PENDING;
        }

        @Override
        public Optional<Assignment> placement() {
            return Optional.empty();
        }
    }

    /**
     * Placed on a node (committed before the launch, so possibly not started there yet).
     *
     * @param assignment the attempt's placement
     * @param startedAt  when it was placed
     */
    record Running(Assignment assignment, Instant startedAt) implements JobStatus {

        public Running {
            Objects.requireNonNull(assignment, "a running job has an assignment");
            Objects.requireNonNull(startedAt, "a running job has a start time");
        }

        @Override
        public JobState state() {
            return JobState.RUNNING;
        }

        @Override
        public Optional<Assignment> placement() {
            return Optional.of(assignment);
        }
    }

    /**
     * Ended, until an explicit requeue. A job that ran keeps its last placement and start time;
     * one that ended while pending (cancelled, unschedulable) has neither.
     *
     * @param outcome    how it ended
     * @param finishedAt when it ended
     * @param exitCode   the command's exit status: 0 for completed, non-zero (or unknown) for
     *                   failed, null for every other outcome
     * @param assignment the last attempt's placement, or null when it never ran
     * @param startedAt  when the last attempt was placed, exactly when {@code assignment} is set
     * @param failureClass why a job that ran ended badly ({@link FailureClass}): always {@code lost} for
     *                   lost and {@code timeout} for timed-out jobs (filled in when null); {@code oom},
     *                   {@code signal}, {@code exit_code}, {@code launch} or null (it never ran, or an older
     *                   nvidb recorded it) for failed ones; null for completed and cancelled ones
     */
    record Ended(Outcome outcome, Instant finishedAt, Integer exitCode, Assignment assignment, Instant startedAt,
                 FailureClass failureClass) implements JobStatus {

        public Ended(Outcome outcome, Instant finishedAt, Integer exitCode, Assignment assignment, Instant startedAt) {
            this(outcome, finishedAt, exitCode, assignment, startedAt, null);
        }

        public Ended {
            Objects.requireNonNull(outcome, "outcome");
            if (failureClass == null && outcome == Outcome.LOST) {
                failureClass = FailureClass.LOST;
            } else if (failureClass == null && outcome == Outcome.TIMEOUT) {
                failureClass = FailureClass.TIMEOUT;
            }
            outcome.checkFailureClass(failureClass);
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(finishedAt, "an ended job has an end time");
            if ((assignment == null) != (startedAt == null)) {
                throw new IllegalArgumentException(
                        "an ended job has both its last placement and start time, or neither");
            }
            outcome.checkExitCode(exitCode);
        }

        /** Ended without ever being placed (no placement, no start time). */
        public static Ended beforePlacement(Outcome outcome, Instant finishedAt) {
            return new Ended(outcome, finishedAt, null, null, null);
        }

        /** Ended after its attempt was placed as {@code running}. */
        public static Ended after(Running running, Outcome outcome, Instant finishedAt, Integer exitCode) {
            return new Ended(outcome, finishedAt, exitCode, running.assignment(), running.startedAt());
        }

        @Override
        public JobState state() {
            return outcome.state();
        }

        @Override
        public Optional<Assignment> placement() {
            return Optional.ofNullable(assignment);
        }
    }

    /** How an ended job ended: one per final {@link JobState}. */
    enum Outcome {
        COMPLETED(JobState.COMPLETED),
        FAILED(JobState.FAILED),
        CANCELLED(JobState.CANCELLED),
        TIMEOUT(JobState.TIMEOUT),
        LOST(JobState.LOST);

        private final JobState state;

        Outcome(JobState state) {
            this.state = state;
        }

        public JobState state() {
            return state;
        }

        /**
         * Refuses an exit code this outcome cannot have: completed exited 0, failed exited
         * non-zero (or has no exit status), every other outcome has none.
         */
        public void checkExitCode(Integer exitCode) {
            boolean fits = switch (this) {
                case COMPLETED -> exitCode != null && exitCode == 0;
                case FAILED -> exitCode == null || exitCode != 0;
                case CANCELLED, TIMEOUT, LOST -> exitCode == null;
            };
            if (!fits) {
                throw new IllegalArgumentException(switch (this) {
                    case COMPLETED -> "a completed job exited 0, not " + exitCode;
                    case FAILED -> "a job that exited 0 completed";
                    case CANCELLED, TIMEOUT, LOST -> "a " + state.key() + " job has no exit code";
                });
            }
        }

        /** Refuses a failure class this outcome cannot have (see {@link Ended#failureClass}). */
        public void checkFailureClass(FailureClass failureClass) {
            boolean fits = switch (this) {
                case COMPLETED, CANCELLED -> failureClass == null;
                case FAILED -> failureClass != FailureClass.LOST && failureClass != FailureClass.TIMEOUT;
                case LOST -> failureClass == FailureClass.LOST;
                case TIMEOUT -> failureClass == FailureClass.TIMEOUT;
            };
            if (!fits) {
                throw new IllegalArgumentException("a " + state.key() + " job cannot have failure class "
                        + (failureClass == null ? "none" : failureClass.key()));
            }
        }

        /** The outcome a final state names; an {@link IllegalArgumentException} for pending and running. */
        public static Outcome of(JobState state) {
            for (Outcome outcome : values()) {
                if (outcome.state == state) {
                    return outcome;
                }
            }
            throw new IllegalArgumentException(state.key() + " is not an outcome");
        }
    }
}
