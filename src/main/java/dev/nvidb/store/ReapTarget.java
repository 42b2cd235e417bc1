package dev.nvidb.store;

import java.util.Objects;

/**
 * A process the queue must kill on a node once it can: identified by its process identity when
 * known, and always by the attempt's launch token and directory when the pid was never reported.
 *
 * @param node        the node it runs on
 * @param process     the process, or null when the launch never reported it
 * @param jobId       the job it ran, or null
 * @param attempt     the attempt of that job, or null (with no job, or a row older than schema v8 whose
 *                    directory was not one the queue made)
 * @param launchToken the attempt's launch token, or null
 * @param jobDir      the attempt's directory on the node, or null
 */
public record ReapTarget(String node, ProcessIdentity process, Long jobId, Integer attempt, String launchToken,
                         String jobDir) {

    public ReapTarget {
        Objects.requireNonNull(node, "node");
        if (process == null && launchToken == null) {
            throw new IllegalArgumentException("a reap needs a process or a launch token");
        }
    }
}
