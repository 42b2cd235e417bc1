package dev.nvidb.queue;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The whole queue in one read: nodes with budgets, jobs, counts by state, open alerts, kills
 * still owed, and when the last tick ran.
 */
public record QueueStatus(List<NodeView> nodes, List<JobView> jobs, Map<String, Integer> counts,
                          List<AlertView> openAlerts, int pendingReaps, Instant lastTickAt) {
}
