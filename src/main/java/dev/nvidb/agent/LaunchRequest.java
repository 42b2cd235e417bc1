package dev.nvidb.agent;

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
 */
public record LaunchRequest(long id, int attempt, String token, String dir, String script, SlurmAsk ask) {

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
        if (token.isBlank() || token.contains("\n") || dir.isBlank()) {
            throw new IllegalArgumentException("a launch needs a one-line token and a directory");
        }
    }

    /** The query that later asks about this launch. */
    public JobQuery query() {
        return new JobQuery(id, attempt, token, dir);
    }
}
