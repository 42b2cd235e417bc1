package dev.nvidb.engine;

import dev.nvidb.model.AlertKind;
import dev.nvidb.store.Alert;
import dev.nvidb.store.AlertStore;
import dev.nvidb.store.SqlWork;
import java.time.Instant;

/**
 * The alerts the engine raises ({@link AlertKind}), each at most once per failure (the key names
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
        return raise(AlertKind.JOB_FAILED, job + ":" + attempt, ERROR, job, node, message, logTail, now);
    }

    SqlWork<Boolean> jobLost(long job, int attempt, String node, String message, String logTail, Instant now) {
        return raise(AlertKind.JOB_LOST, job + ":" + attempt, ERROR, job, node, message, logTail, now);
    }

    SqlWork<Boolean> jobRetried(long job, int attempt, String node, String message, Instant now) {
        return raise(AlertKind.JOB_RETRIED, job + ":" + attempt, WARNING, job, node, message, null, now);
    }

    SqlWork<Boolean> jobTimeout(long job, int attempt, String node, String message, Instant now) {
        return raise(AlertKind.JOB_TIMEOUT, job + ":" + attempt, ERROR, job, node, message, null, now);
    }

    SqlWork<Boolean> dependencyFailed(long job, String message, Instant now) {
        return raise(AlertKind.DEPENDENCY_FAILED, String.valueOf(job), ERROR, job, null, message, null, now);
    }

    SqlWork<Boolean> unschedulable(long job, String message, Instant now) {
        return raise(AlertKind.JOB_UNSCHEDULABLE, String.valueOf(job), ERROR, job, null, message, null, now);
    }

    /** Once per attempt: the job's processes hold memory on a GPU it was not given. */
    SqlWork<Boolean> jobWrongGpu(long job, int attempt, String node, String message, Instant now) {
        return raise(AlertKind.JOB_WRONG_GPU, job + ":" + attempt, WARNING, job, node, message, null, now);
    }

    SqlWork<Boolean> launchFailed(long job, int attempt, String node, String message, Instant now) {
        return raise(AlertKind.LAUNCH_FAILED, job + ":" + attempt, WARNING, job, node, message, null, now);
    }

    /** One alert per hold of a group: the key carries the time it was held. */
    SqlWork<Boolean> groupHeld(String group, Instant heldAt, String message, Instant now) {
        return raise(AlertKind.GROUP_HELD, group + ":" + heldAt.toEpochMilli(), ERROR, null, null, message, null, now);
    }

    /** One alert per outage: the key carries the time the node was last seen. */
    SqlWork<Boolean> nodeDown(String node, Instant lastSeen, String message, Instant now) {
        String since = lastSeen == null ? "never" : String.valueOf(lastSeen.toEpochMilli());
        return raise(AlertKind.NODE_DOWN, node + ":" + since, ERROR, null, node, message, null, now);
    }

    /** Raises {@code kind} once per {@code what}: the dedup key is {@code kind:what}. */
    private SqlWork<Boolean> raise(AlertKind kind, String what, String severity, Long job, String node,
                                   String message, String detail, Instant now) {
        String key = kind.key() + ":" + what;
        return connection -> store.raise(connection, Alert.raise(now, key, kind, severity, job, node, message, detail))
                .isPresent();
    }
}
