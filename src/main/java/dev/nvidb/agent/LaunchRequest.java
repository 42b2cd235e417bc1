package dev.nvidb.agent;

import java.util.List;
import java.util.Objects;

/**
 * Asks a node to start one attempt of a job. Idempotent on {@code token}: when the directory
 * already holds this token and its wrapper, the node adopts it instead of starting a second
 * process; a directory holding another token is refused.
 *
 * @param id      the job id
 * @param attempt the attempt number
 * @param token   the attempt's launch token, committed before the launch
 * @param dir     the attempt directory on the node ({@code ~} is the node's home)
 * @param script  the text of {@code run.sh}, see {@link RunScript#render}
 * @param ask     what a Slurm node asks Slurm for ({@code sbatch --gres}, {@code --time}, the name in
 *                {@code --comment}); a plain node ignores it
 * @param claim   what a plain node claims before it starts the job
 */
public record LaunchRequest(long id, int attempt, String token, String dir, String script, SlurmAsk ask,
                            Claim claim) {

    /**
     * What the launch claims on the node before it starts (docs/sharing.md): the agent checks, under
     * the claims directory's lock, that the job still fits these GPUs, and leaves a claim there
     * for as long as its wrapper runs.
     *
     * @param gpuUuids       the GPUs the job was given (none: nothing is claimed)
     * @param mib            MiB reserved on each
     * @param exclusive      whether the job needs each GPU empty ({@code --exclusive})
     * @param timeoutSeconds the job's {@code --timeout}, after which (plus an hour) the claim expires, or null
     * @param cap            the node policy's cap on this user's GPUs and MiB there, checked under the same
     *                       lock against every claim of the user, or null when the node has none
     */
    public record Claim(List<String> gpuUuids, long mib, boolean exclusive, Long timeoutSeconds, Cap cap) {

        /** Nothing claimed (a CPU job, a Slurm node). */
        public static final Claim NONE = new Claim(List.of(), 0, false, null, null);

        public Claim {
            gpuUuids = List.copyOf(gpuUuids);
            if (mib < 0) {
                throw new IllegalArgumentException("a claim cannot reserve a negative amount");
            }
        }

        /** A claim under no node policy cap. */
        public Claim(List<String> gpuUuids, long mib, boolean exclusive, Long timeoutSeconds) {
            this(gpuUuids, mib, exclusive, timeoutSeconds, null);
        }
    }

    /**
     * A node policy's cap on one user (docs/sharing.md), as the queue read {@code policy.yml}.
     *
     * @param gpus the most GPUs the user's claims may hold on the node, or null for no cap
     * @param mib  the most MiB they may reserve there over all their GPUs, or null for no cap
     */
    public record Cap(Integer gpus, Long mib) {
    }

    /** A launch that claims nothing. */
    public LaunchRequest(long id, int attempt, String token, String dir, String script, SlurmAsk ask) {
        this(id, attempt, token, dir, script, ask, Claim.NONE);
    }

    /**
     * The job's request as Slurm hears it.
     *
     * @param gpus           GPUs ({@code --gres=gpu:N}; none for 0)
     * @param timeoutSeconds the job's {@code --timeout}, sent as {@code --time} in whole minutes, or null
     * @param name           the job's name, carried in {@code --comment} beside its id
     */
    public record SlurmAsk(int gpus, Long timeoutSeconds, String name) {

        /** Nothing beyond the partition's defaults. */
        public static final SlurmAsk NONE = new SlurmAsk(0, null, "");
    }

    /** A launch on a plain node. */
    public LaunchRequest(long id, int attempt, String token, String dir, String script) {
        this(id, attempt, token, dir, script, SlurmAsk.NONE);
    }

    public LaunchRequest {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(script, "script");
        ask = ask == null ? SlurmAsk.NONE : ask;
        claim = claim == null ? Claim.NONE : claim;
        if (token.isBlank() || token.contains("\n") || dir.isBlank()) {
            throw new IllegalArgumentException("a launch needs a one-line token and a directory");
        }
    }

    /** The query that later asks about this launch. */
    public JobQuery query() {
        return new JobQuery(id, attempt, token, dir);
    }
}
