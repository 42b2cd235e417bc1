package dev.nvidb.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code alerts} table and per-channel delivery bookkeeping. An alert's unique key makes
 * raising idempotent, so two clients settling the same failure raise it once.
 */
public final class AlertStore {

    private static final String RAISE = """
            INSERT INTO alerts (at, dedup_key, kind, severity, job_id, node, message, detail)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedup_key) DO NOTHING RETURNING id
            """;
    static final String COLUMNS = """
            SELECT id, at, dedup_key, kind, severity, job_id, node, message, detail, acknowledged_at FROM alerts
            """;
    private static final String OPEN = COLUMNS + " WHERE acknowledged_at IS NULL ORDER BY id";
    private static final String RECENT = COLUMNS + " ORDER BY id DESC LIMIT ?";
    private static final String ACKNOWLEDGE = """
            UPDATE alerts SET acknowledged_at = ? WHERE id = ? AND acknowledged_at IS NULL
            """;
    private static final String ACKNOWLEDGE_ALL = "UPDATE alerts SET acknowledged_at = ? WHERE acknowledged_at IS NULL";
    private static final String UNDELIVERED = COLUMNS + """
             WHERE NOT EXISTS (SELECT 1 FROM alert_deliveries d
                               WHERE d.alert_id = alerts.id AND d.channel = ? AND d.delivered_at IS NOT NULL)
            ORDER BY id
            """;
    private static final String DELIVERY = """
            INSERT INTO alert_deliveries (alert_id, channel, delivered_at, attempts, last_error) VALUES (?, ?, ?, 1, ?)
            ON CONFLICT (alert_id, channel) DO UPDATE SET delivered_at = COALESCE(delivered_at, excluded.delivered_at),
                attempts = attempts + 1, last_error = excluded.last_error
            """;

    private final Database database;

    public AlertStore(Database database) {
        this.database = database;
    }

    /** Stores {@code alert} unless one with its key exists; the new id, or empty when it was already raised. */
    public Optional<Long> raise(Connection connection, Alert alert) throws SQLException {
        return Optional.ofNullable(Columns.queryLong(connection, RAISE, alert.at(), alert.key(), alert.kind(),
                alert.severity(), alert.jobId(), alert.node(), alert.message(), alert.detail()));
    }

    public Optional<Long> raise(Alert alert) {
        return database.write("raise alert " + alert.key(), conn -> raise(conn, alert));
    }

    /** Alerts not yet acknowledged, oldest first. */
    public List<Alert> listOpen(Connection connection) throws SQLException {
        return query(connection, OPEN);
    }

    public List<Alert> listOpen() {
        return database.read("read alerts", this::listOpen);
    }

    /** The newest {@code limit} alerts, open or not, newest first. */
    public List<Alert> listRecent(Connection connection, int limit) throws SQLException {
        return query(connection, RECENT, limit);
    }

    public List<Alert> listRecent(int limit) {
        return database.read("read alerts", conn -> listRecent(conn, limit));
    }

    /** Acknowledges one open alert; false when it does not exist or was already acknowledged. */
    public boolean acknowledge(Connection connection, long id, Instant now) throws SQLException {
        return Columns.update(connection, ACKNOWLEDGE, now, id) == 1;
    }

    public boolean acknowledge(long id, Instant now) {
        return database.write("acknowledge alert " + id, conn -> acknowledge(conn, id, now));
    }

    /** Acknowledges every open alert; returns how many. */
    public int acknowledgeAll(Connection connection, Instant now) throws SQLException {
        return Columns.update(connection, ACKNOWLEDGE_ALL, now);
    }

    public int acknowledgeAll(Instant now) {
        return database.write("acknowledge alerts", conn -> acknowledgeAll(conn, now));
    }

    /** Alerts {@code channel} has not delivered yet, oldest first. */
    public List<Alert> listUndelivered(Connection connection, String channel) throws SQLException {
        return query(connection, UNDELIVERED, channel);
    }

    /**
     * Records one delivery attempt on {@code channel}: delivered when {@code error} is null,
     * failed (and still owed) otherwise. A failed channel is never marked done.
     */
    public void recordDelivery(Connection connection, long alertId, String channel, String error, Instant now)
            throws SQLException {
        Columns.update(connection, DELIVERY, alertId, channel, error == null ? now : null, error);
    }

    private static List<Alert> query(Connection connection, String sql, Object... values) throws SQLException {
        List<Alert> alerts = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(sql);
             ResultSet rows = Columns.bind(statement, values).executeQuery()) {
            while (rows.next()) {
                alerts.add(fromRow(rows));
            }
        }
        return alerts;
    }

    static Alert fromRow(ResultSet rows) throws SQLException {
        return new Alert(rows.getLong("id"), Columns.instant(rows, "at"), rows.getString("dedup_key"),
                rows.getString("kind"), rows.getString("severity"), Columns.longOrNull(rows, "job_id"),
                rows.getString("node"), rows.getString("message"), rows.getString("detail"),
                Columns.instant(rows, "acknowledged_at"));
    }
}
