package dev.nvidb.queue;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The whole queue in one read: nodes with budgets, jobs, counts by state, open alerts, kills
 * still owed, when the last tick ran, and whether the database holds times from the future
 * ({@code clockSkew}, null when it does not), alert delivery by channel ({@code delivery}, null when
 * {@code queue.notify} turns no channel on), and the database's size and last backup ({@code storage}).
 */
public record QueueStatus(List<NodeView> nodes, List<JobView> jobs, Map<String, Integer> counts,
                          List<AlertView> openAlerts, int pendingReaps, Instant lastTickAt, ClockSkew clockSkew,
                          NotifyStatus delivery, Storage storage) {

    /**
     * The database on disk.
     *
     * @param databaseBytes size of {@code queue.db} and its write-ahead log together
     * @param lastBackupAt  when the last backup was made, or null when none was
     */
    public record Storage(long databaseBytes, Instant lastBackupAt) {
    }

    /** A status without delivery channels or storage figures. */
    public QueueStatus(List<NodeView> nodes, List<JobView> jobs, Map<String, Integer> counts,
                       List<AlertView> openAlerts, int pendingReaps, Instant lastTickAt, ClockSkew clockSkew) {
        this(nodes, jobs, counts, openAlerts, pendingReaps, lastTickAt, clockSkew, null, null);
    }

    /** A status without a clock reading (the database holds no time from the future). */
    public QueueStatus(List<NodeView> nodes, List<JobView> jobs, Map<String, Integer> counts,
                       List<AlertView> openAlerts, int pendingReaps, Instant lastTickAt) {
        this(nodes, jobs, counts, openAlerts, pendingReaps, lastTickAt, null);
    }
}
