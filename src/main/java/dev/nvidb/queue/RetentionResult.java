package dev.nvidb.queue;

import java.util.List;

/**
 * What one retention run removed (or, with {@code dryRun}, would remove from the database; a
 * dry run asks no node, so {@code jobDirs} is then the number due).
 *
 * @param dryRun   nothing was changed
 * @param jobs     ids of the finished jobs removed
 * @param events   events removed
 * @param alerts   alerts removed
 * @param jobDirs  job directories removed on the nodes
 * @param problems one line per node that did not answer or directory that could not be removed
 */
public record RetentionResult(boolean dryRun, List<Long> jobs, int events, int alerts, int jobDirs,
                              List<String> problems) {

    public RetentionResult {
        jobs = List.copyOf(jobs);
        problems = List.copyOf(problems);
    }
}
