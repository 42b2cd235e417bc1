package dev.nvidb.agent;

import java.time.Instant;
import java.util.Objects;

/**
 * What a node said about one attempt of a job. The agent checks liveness first, then the
 * exit file (re-read once before {@link Status#VANISHED}), so a job that finished between
 * two probes is reported {@link Status#EXITED}, never lost.
 *
 * @param id          the job id
 * @param attempt     the attempt number
 * @param status      see {@link Status}
 * @param wrapper     the wrapper's recorded identity, or null when there is none (missing, error)
 * @param exitCode    the job's exit status when exited (143 after TERM, 137 after KILL), else null
 * @param finishedAt  the node's clock when the wrapper recorded the exit, else null
 * @param progress    the last non-empty line of the job's status file (at most 500 characters), or null
 * @param result      the job's {@code result.json} as compact JSON text, or null
 * @param resultError why {@code result.json} could not be used (invalid JSON, too large), or null
 * @param logTail     the end of stderr (else stdout) of a job that exited non-zero or vanished, or null
 * @param reason      why the job is missing, vanished or in error, or null
 * @param failureLog  the last 16 KiB of stderr and of stdout of a job that exited non-zero, where its
 *                    failure class is looked for ({@code model.FailureClass}); null otherwise, and from an
 *                    agent older than failure classes
 * @param slurm       on a Slurm node, what {@code squeue}/{@code sacct} said of the job (its state and
 *                    reason), or null (a plain node, or a job Slurm no longer knows)
 */
public record JobReport(long id, int attempt, Status status, WrapperProcess wrapper, Integer exitCode,
        Instant finishedAt, String progress, String result, String resultError, String logTail, String reason,
        String failureLog, SlurmJob slurm) {

    /** The boot id a Slurm job's identity carries: its "pid" is the Slurm job id. */
    public static final String SLURM_BOOT_ID = "slurm";

    /** A report from a plain node. */
    public JobReport(long id, int attempt, Status status, WrapperProcess wrapper, Integer exitCode,
                     Instant finishedAt, String progress, String result, String resultError, String logTail,
                     String reason, String failureLog) {
        this(id, attempt, status, wrapper, exitCode, finishedAt, progress, result, resultError, logTail, reason,
                failureLog, null);
    }

    public JobReport(long id, int attempt, Status status, WrapperProcess wrapper, Integer exitCode,
                     Instant finishedAt, String progress, String result, String resultError, String logTail,
                     String reason) {
        this(id, attempt, status, wrapper, exitCode, finishedAt, progress, result, resultError, logTail, reason,
                null, null);
    }

    /** Where an attempt stands on its node. */
    public enum Status {
        /** The wrapper is alive and is the process recorded at launch. */
        RUNNING,
        /** The wrapper recorded an exit status: {@code exitCode} and {@code finishedAt} are set. */
        EXITED,
        /** The wrapper is gone without an exit status (killed by SIGKILL, node out of memory, ...). */
        VANISHED,
        /** The directory is missing or holds another token, or the launch never completed: it never ran here. */
        MISSING,
        /** The node could not answer for this job (bad entry, unreadable directory); nothing is known. */
        ERROR
    }

    public JobReport {
        Objects.requireNonNull(status, "status");
    }

    /** True when the attempt has ended on the node, one way or another. */
    public boolean ended() {
        return status == Status.EXITED || status == Status.VANISHED;
    }
}
