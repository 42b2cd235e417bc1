package dev.nvidb.store;

import dev.nvidb.model.Job;
import java.time.Instant;
import java.util.Objects;

/**
 * A job together with what only the engine needs about its current attempt: where its files are
 * on the node, which process runs it, since when its node has not answered, and the most GPU
 * memory it was seen using.
 *
 * @param job             the job
 * @param jobDir          the attempt's directory on the node, or null before placement
 * @param process         the attempt's process once the launch reported it, or null
 * @param unverifiedSince when its node stopped answering while it ran, or null
 * @param measuredMb      the largest per-GPU memory use measured for this attempt, or null
 */
public record StoredJob(Job job, String jobDir, ProcessIdentity process, Instant unverifiedSince, Long measuredMb) {

    public StoredJob {
        Objects.requireNonNull(job, "job");
    }

    public long id() {
        return job.id();
    }

    /** The compare-and-set expectation for this job as read. */
    public Expected expected() {
        return Expected.of(job);
    }
}
