package dev.nvidb.model;

/**
 * A job's wait on another job.
 *
 * @param jobId    the job waited for
 * @param needsSuccess true for {@code --after} (the other job must complete), false for
 *                     {@code --after-any} (any end will do)
 */
public record Dependency(long jobId, boolean needsSuccess) {
}
