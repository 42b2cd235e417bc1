package dev.nvidb.agent;

import java.util.Objects;

/**
 * Asks a node about one attempt of a job the queue believes is there. The agent answers
 * with a {@link JobReport}: from the process the queue recorded for the attempt when there is
 * one (so a job whose directory was removed or renamed is still known by its process), else
 * from the attempt directory and the node's launch ledger.
 *
 * @param id      the job id
 * @param attempt the attempt number (1 for the first run)
 * @param token   the attempt's launch token; a directory holding another token is not this attempt
 * @param dir     the attempt directory on the node ({@code ~} is the node's home), see {@link #directory}
 * @param process the wrapper recorded at launch, or null when the launch's reply never arrived
 */
public record JobQuery(long id, int attempt, String token, String dir, Process process) {

    /** A recorded wrapper identity: pid, process group, start time in clock ticks, boot id. */
    public record Process(long pid, long pgid, long startTicks, String bootId) {
    }

    public JobQuery {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(dir, "dir");
        if (token.isBlank() || dir.isBlank()) {
            throw new IllegalArgumentException("a job query needs a token and a directory");
        }
    }

    /** A query for an attempt whose process the queue does not know. */
    public JobQuery(long id, int attempt, String token, String dir) {
        this(id, attempt, token, dir, null);
    }

    /** The attempt directory under a job root: {@code <jobRoot>/<id>/<attempt>}. */
    public static String directory(String jobRoot, long id, int attempt) {
        String root = jobRoot.endsWith("/") && jobRoot.length() > 1
                ? jobRoot.substring(0, jobRoot.length() - 1) : jobRoot;
        return root + "/" + id + "/" + attempt;
    }
}
