package dev.nvidb.engine;

import dev.nvidb.store.Alert;
import dev.nvidb.store.AlertStore;
import dev.nvidb.store.SqlWork;
import java.time.Instant;

/**
 * The alert kinds of the seed's table, each raised at most once per failure (the key names
 * the job and attempt, or the node and its outage). Each method returns the work to run in
 * the transaction of the state change it belongs to.
 */
final class Alerts {

    static final String ERROR = "error";
    static final String WARNING = "warning";

    private final AlertStore store;

    Alerts(AlertStore store) {
        this.store = store;
    }

    SqlWork<Boolean> jobFailed(long job, int attempt, String node, String message, String logTail, Instant now) {
        return raise("job_failed:" + job + ":" + attempt, "job_failed", ERROR, job, node, message, logTail, now);
    }

    SqlWork<Boolean> jobLost(long job, int attempt, String node, String message, String logTail, Instant now) {
        return raise("job_lost:" + job + ":" + attempt, "job_lost", ERROR, job, node, message, logTail, now);
    }

    SqlWork<Boolean> jobRetried(long job, int attempt, String node, String message, Instant now) {
        return raise("job_retried:" + job + ":" + attempt, "job_retried", WARNING, job, node, message, null, now);
    }

    SqlWork<Boolean> jobTimeout(long job, int attempt, String node, String message, Instant now) {
        return raise("job_timeout:" + job + ":" + attempt, "job_timeout", ERROR, job, node, message, null, now);
    }

    SqlWork<Boolean> dependencyFailed(long job, String message, Instant now) {
        return raise("dependency_failed:" + job, "dependency_failed", ERROR, job, null, message, null, now);
    }

    SqlWork<Boolean> unschedulable(long job, String message, Instant now) {
        return raise("job_unschedulable:" + job, "job_unschedulable", ERROR, job, null, message, null, now);
    }

    SqlWork<Boolean> launchFailed(long job, int attempt, String node, String message, Instant now) {
        return raise("launch_failed:" + job + ":" + attempt, "launch_failed", WARNING, job, node, message, null, now);
    }

    /** One alert per outage: the key carries the time the node was last seen. */
    SqlWork<Boolean> nodeDown(String node, Instant lastSeen, String message, Instant now) {
        String since = lastSeen == null ? "never" : String.valueOf(lastSeen.toEpochMilli());
        return raise("node_down:" + node + ":" + since, "node_down", ERROR, null, node, message, null, now);
    }

    private SqlWork<Boolean> raise(String key, String kind, String severity, Long job, String node,
                                   String message, String detail, Instant now) {
        return connection -> store.raise(connection, Alert.raise(now, key, kind, severity, job, node, message, detail))
                .isPresent();
    }
}
