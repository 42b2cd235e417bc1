package dev.nvidb.agent;

import java.util.Set;

/**
 * Slurm's job states onto nvidb's lifecycle (docs/scheduling.md, "A Slurm cluster as a node"). Pure:
 * the agent reports what {@code squeue}/{@code sacct} said and what the batch wrapper left in the
 * attempt directory; this decides.
 *
 * <ul>
 *   <li>waiting or running in Slurm ({@code PENDING}, {@code RUNNING}, {@code CONFIGURING},
 *       {@code COMPLETING}, {@code SUSPENDED}, …): the attempt is {@link Kind#ACTIVE} (nvidb's
 *       {@code running}: handed to Slurm), with Slurm's state and reason shown;</li>
 *   <li>{@code COMPLETED} and {@code FAILED}: {@link Kind#EXITED} with the exit status (the wrapper's
 *       exit file, else {@code sacct}'s); {@code TIMEOUT}: {@link Kind#TIMEOUT}; {@code OUT_OF_MEMORY}:
 *       {@link Kind#OUT_OF_MEMORY} (failed, class {@code oom});</li>
 *   <li>{@code NODE_FAIL}, {@code PREEMPTED}, {@code BOOT_FAIL}, {@code DEADLINE}, {@code REVOKED} and a
 *       {@code CANCELLED} nvidb did not ask for: {@link Kind#GONE} (the job did not finish by itself:
 *       retried while retries remain, else lost);</li>
 *   <li>a job Slurm no longer knows: {@link Kind#EXITED} when the wrapper left an exit status, else
 *       {@link Kind#GONE}; a state this build does not know: {@link Kind#UNKNOWN}, nothing decided.</li>
 * </ul>
 */
public final class SlurmStates {

    /** What a Slurm job's state means to nvidb. */
    public enum Kind { ACTIVE, EXITED, TIMEOUT, OUT_OF_MEMORY, GONE, UNKNOWN }

    private static final Set<String> ACTIVE = Set.of("PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED",
            "REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD", "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED",
            "RESV_DEL_HOLD", "SPECIAL_EXIT", "POWER_UP_NODE", "UPDATE_DB");
    private static final Set<String> GONE = Set.of("NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE", "REVOKED",
            "CANCELLED", "LAUNCH_FAILED");

    private SlurmStates() {
    }

    /** The meaning of Slurm's {@code state} (as {@link SlurmJob} keeps it). */
    public static Kind of(String state) {
        if (ACTIVE.contains(state)) {
            return Kind.ACTIVE;
        }
        if (GONE.contains(state)) {
            return Kind.GONE;
        }
        return switch (state) {
            case "COMPLETED", "FAILED" -> Kind.EXITED;
            case "TIMEOUT" -> Kind.TIMEOUT;
            case "OUT_OF_MEMORY" -> Kind.OUT_OF_MEMORY;
            default -> Kind.UNKNOWN;
        };
    }

    /**
     * The meaning of what a node said about one attempt: Slurm's record of it ({@code job}, null when
     * Slurm no longer knows it) and whether the batch wrapper left an exit status.
     */
    public static Kind of(SlurmJob job, boolean exitFileLeft) {
        if (job == null) {
            return exitFileLeft ? Kind.EXITED : Kind.GONE;
        }
        return of(job.state());
    }

    /**
     * The exit status of an ended job: the wrapper's (what the job's shell returned), else Slurm's, else
     * for {@code COMPLETED} 0 and otherwise unknown (null).
     */
    public static Integer exitCode(SlurmJob job, Integer exitFile) {
        if (exitFile != null) {
            return exitFile;
        }
        if (job != null && job.exitCode() != null) {
            return job.exitCode();
        }
        return job != null && job.state().equals("COMPLETED") ? Integer.valueOf(0) : null;
    }
}
