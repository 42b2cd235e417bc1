package dev.nvidb.queue;

import dev.nvidb.model.Job;
import java.time.Instant;

/**
 * A job as commands show it: the record plus what the last scheduler pass said about it and
 * whether its node has stopped answering.
 *
 * @param job             the job
 * @param pendingReason   why a pending job is not running yet (null for other states)
 * @param unverifiedSince when its node stopped answering while it ran, or null
 * @param jobDir          the current attempt's directory on the node ({@code ~} is the node's home), or null
 * @param damage          what of the job's row in queue.db could not be read (it is shown without it), or null
 */
public record JobView(Job job, String pendingReason, Instant unverifiedSince, String jobDir, String damage,
                      int oomRetries) {

    public JobView(Job job, String pendingReason, Instant unverifiedSince, String jobDir, String damage) {
        this(job, pendingReason, unverifiedSince, jobDir, damage, 0);
    }

    public JobView(Job job, String pendingReason, Instant unverifiedSince, String jobDir) {
        this(job, pendingReason, unverifiedSince, jobDir, null);
    }

    public long id() {
        return job.id();
    }
}
