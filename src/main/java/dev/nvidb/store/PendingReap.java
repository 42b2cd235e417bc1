package dev.nvidb.store;

import java.time.Instant;

/**
 * A kill the queue still owes: recorded in the same transaction as the cancel, timeout or
 * requeue that made it necessary, and deleted only once the agent verified the process gone.
 * It outlives the job's requeue and purge.
 *
 * @param id          row id
 * @param target      what to kill, and where
 * @param reason      why ({@code cancelled}, {@code timeout}, {@code requeued}, …)
 * @param createdAt   when it was recorded
 * @param attempts    how many times a kill was tried
 * @param signalledAt when TERM was first sent (KILL follows after the grace period), or null
 * @param lastError   why the last try failed, or null
 */
public record PendingReap(long id, ReapTarget target, String reason, Instant createdAt, int attempts,
                          Instant signalledAt, String lastError) {
}
