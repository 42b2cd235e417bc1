package dev.nvidb.store;

import dev.nvidb.model.EventKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Removal of what the queue no longer needs (retention, {@code queue gc}), each a single
 * statement whose conditions say what is never removed: a job that is pending or running or
 * that a pending or running job depends on; an event of a pending or running job; an alert
 * that is open or still owed to a delivery channel. Job directories on the nodes are removed
 * by the node agent; this store picks them (per node, oldest first, behind a watermark kept in
 * {@code meta}) and holds back a job's row until its node has dealt with its directory.
 */
public final class RetentionStore {

    /** Meta key prefix: per node, every job there that ended before this time (epoch ms) has had its directory handled. */
    public static final String DIRS_DONE_PREFIX = "retention_job_dirs_until:";
    /** When retention last ran (epoch ms). */
    public static final String LAST_RUN_AT = "last_retention_at";

    private static final String FINISHED = "('completed', 'failed', 'cancelled', 'timeout', 'lost')";
    private static final String OLD_JOBS = """
            SELECT id FROM jobs j
            WHERE state IN %s AND finished_at < ?
              AND id NOT IN (SELECT d.depends_on FROM job_dependencies d JOIN jobs waiting ON waiting.id = d.job_id
                             WHERE waiting.state IN ('pending', 'running'))
              AND (? = 0 OR j.node IS NULL OR j.job_dir IS NULL
                   OR j.node NOT IN (SELECT value FROM json_each(?))
                   OR j.finished_at < COALESCE((SELECT CAST(m.value AS INTEGER) FROM meta m
                                                WHERE m.key = '%s' || j.node), 0))
            ORDER BY id
            """.formatted(FINISHED, DIRS_DONE_PREFIX);
    private static final String DELETE_JOBS = "DELETE FROM jobs WHERE id IN (SELECT value FROM json_each(?))";
    private static final String DELETE_CANCEL_REQUESTS =
            "DELETE FROM cancel_requests WHERE job_id IN (SELECT value FROM json_each(?))";
    private static final String DELETE_EVENTS = """
            DELETE FROM events WHERE at < ?
              AND (job_id IS NULL OR job_id NOT IN (SELECT id FROM jobs WHERE state IN ('pending', 'running')))
            """;
    private static final String DELETE_ALERTS = """
            DELETE FROM alerts WHERE acknowledged_at IS NOT NULL AND acknowledged_at < ?
              AND NOT EXISTS (SELECT 1 FROM alert_deliveries d WHERE d.alert_id = alerts.id AND d.delivered_at IS NULL)
              AND NOT EXISTS (SELECT 1 FROM json_each(?) channel
                              WHERE NOT EXISTS (SELECT 1 FROM alert_deliveries d WHERE d.alert_id = alerts.id
                                                AND d.channel = channel.value AND d.delivered_at IS NOT NULL))
            """;
    private static final String OLD_DIRS = """
            SELECT id, job_dir, finished_at FROM jobs
            WHERE node = ? AND state IN %s AND finished_at >= ? AND finished_at < ?
            ORDER BY finished_at, id LIMIT ?
            """.formatted(FINISHED);

    /** A finished job's directory on its node, due for removal. */
    public record OldDir(long jobId, String attemptDir, Instant finishedAt) {
    }

    private final Database database;
    private final MetaStore meta;
    private final EventStore events;

    public RetentionStore(Database database) {
        this.database = database;
        this.meta = new MetaStore(database);
        this.events = new EventStore(database);
    }

    /**
     * Removes finished jobs that ended before {@code cutoff} with their dependency rows and
     * cancel requests, except a job a pending or running job depends on and, when
     * {@code dirsFirst}, a job on one of {@code nodes} whose directory its node has not dealt with
     * yet. Records one {@code purged} event; returns the ids removed.
     */
    public List<Long> removeJobs(Connection connection, Instant cutoff, boolean dirsFirst, Collection<String> nodes,
                                 Instant now) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(OLD_JOBS);
             ResultSet rows = Columns.bind(statement, cutoff, dirsFirst ? 1 : 0, JsonText.write(List.copyOf(nodes)))
                     .executeQuery()) {
            while (rows.next()) {
                ids.add(rows.getLong(1));
            }
        }
        if (ids.isEmpty()) {
            return ids;
        }
        String list = JsonText.write(ids);
        Columns.update(connection, DELETE_CANCEL_REQUESTS, list);
        Columns.update(connection, DELETE_JOBS, list);
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("count", ids.size());
        detail.put("reason", "retention");
        detail.put("finished_before", cutoff.toEpochMilli());
        events.append(connection, now, null, null, EventKind.PURGED, detail);
        return ids;
    }

    /** Removes events older than {@code cutoff} except those of pending and running jobs; how many. */
    public int removeEvents(Connection connection, Instant cutoff) throws SQLException {
        return Columns.update(connection, DELETE_EVENTS, cutoff);
    }

    /**
     * Removes alerts acknowledged before {@code cutoff} that no channel is owed: every delivery
     * row delivered, and one delivered for each of {@code channels}; how many.
     */
    public int removeAlerts(Connection connection, Instant cutoff, Collection<String> channels) throws SQLException {
        return Columns.update(connection, DELETE_ALERTS, cutoff, JsonText.write(List.copyOf(channels)));
    }

    /**
     * The finished jobs of {@code node} whose directories are due (ended before {@code cutoff},
     * not before the node's watermark), oldest first, at most {@code limit}.
     */
    public List<OldDir> oldDirs(Connection connection, String node, Instant cutoff, int limit) throws SQLException {
        Instant from = dirsDoneUntil(connection, node).orElse(Instant.EPOCH);
        List<OldDir> found = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(OLD_DIRS);
             ResultSet rows = Columns.bind(statement, node, from, cutoff, limit).executeQuery()) {
            while (rows.next()) {
                found.add(new OldDir(rows.getLong("id"), rows.getString("job_dir"),
                        Columns.instant(rows, "finished_at")));
            }
        }
        return found;
    }

    public List<OldDir> oldDirs(String node, Instant cutoff, int limit) {
        return database.read("read old job directories", conn -> oldDirs(conn, node, cutoff, limit));
    }

    /** Every job of {@code node} that ended before the returned time has had its directory handled. */
    public Optional<Instant> dirsDoneUntil(Connection connection, String node) throws SQLException {
        return meta.getInstant(connection, DIRS_DONE_PREFIX + node);
    }

    /** Moves the node's watermark forward to {@code until} (never back). */
    public void dirsDone(String node, Instant until) {
        database.write("record removed job directories", conn -> {
            Optional<Instant> current = dirsDoneUntil(conn, node);
            if (current.isEmpty() || current.get().isBefore(until)) {
                meta.putInstant(conn, DIRS_DONE_PREFIX + node, until);
            }
            return null;
        });
    }
}
