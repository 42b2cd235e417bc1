package dev.nvidb.agent;

import java.util.Objects;

/**
 * Asks a node about one attempt of a job the queue believes is there. The agent answers
 * with a {@link JobReport} read from the attempt directory.
 *
 * @param id      the job id
 * @param attempt the attempt number (1 for the first run)
 * @param token   the attempt's launch token; a directory holding another token is not this attempt
 * @param dir     the attempt directory on the node ({@code ~} is the node's home), see {@link #directory}
 */
public record JobQuery(long id, int attempt, String token, String dir) {

    public JobQuery {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(dir, "dir");
        if (token.isBlank() || dir.isBlank()) {
            throw new IllegalArgumentException("a job query needs a token and a directory");
        }
    }

    /** The attempt directory under a job root: {@code <jobRoot>/<id>/<attempt>}. */
    public static String directory(String jobRoot, long id, int attempt) {
        String root = jobRoot.endsWith("/") && jobRoot.length() > 1
                ? jobRoot.substring(0, jobRoot.length() - 1) : jobRoot;
        return root + "/" + id + "/" + attempt;
    }
}
