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
 */
public record LaunchRequest(long id, int attempt, String token, String dir, String script) {

    public LaunchRequest {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(script, "script");
        if (token.isBlank() || token.contains("\n") || dir.isBlank()) {
            throw new IllegalArgumentException("a launch needs a one-line token and a directory");
        }
    }

    /** The query that later asks about this launch. */
    public JobQuery query() {
        return new JobQuery(id, attempt, token, dir);
    }
}
