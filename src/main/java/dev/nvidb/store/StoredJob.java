package dev.nvidb.store;

import dev.nvidb.model.Job;
import java.time.Instant;
import java.util.Objects;

/**
 * A job together with what only the engine needs about its current attempt: where its files are
 * on the node, which process runs it, since when its node has not answered, the most GPU memory
 * it was seen using, and how many launches in a row failed.
 *
 * @param job             the job
 * @param jobDir          the attempt's directory on the node, or null before placement
 * @param process         the attempt's process once the launch reported it, or null
 * @param unverifiedSince when its node stopped answering while it ran, or null
 * @param measuredMb      the largest per-GPU memory use measured for this attempt, or null
 * @param launchFailures  launches that failed for sure in a row (a requeue, release or retry starts again)
 * @param damage          what could not be read of the row (a JSON column that does not parse), read with
 *                        {@link JobStore#tolerant}; null when the row read cleanly
 * @param oomRetries      how many of its {@code --retry-oom} retries were used (schema v6)
 */
public record StoredJob(Job job, String jobDir, ProcessIdentity process, Instant unverifiedSince, Long measuredMb,
                        int launchFailures, String damage, int oomRetries) {

    public StoredJob(Job job, String jobDir, ProcessIdentity process, Instant unverifiedSince, Long measuredMb,
                     int launchFailures, String damage) {
        this(job, jobDir, process, unverifiedSince, measuredMb, launchFailures, damage, 0);
    }

    public StoredJob(Job job, String jobDir, ProcessIdentity process, Instant unverifiedSince, Long measuredMb,
                     int launchFailures) {
        this(job, jobDir, process, unverifiedSince, measuredMb, launchFailures, null);
    }

    public StoredJob {
        Objects.requireNonNull(job, "job");
        if (launchFailures < 0) {
            throw new IllegalArgumentException("launch failures " + launchFailures);
        }
    }

    public long id() {
        return job.id();
    }

    /** The compare-and-set expectation for this job as read. */
    public Expected expected() {
        return Expected.of(job);
    }
}
