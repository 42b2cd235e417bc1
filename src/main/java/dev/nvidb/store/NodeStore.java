package dev.nvidb.store;

import dev.nvidb.model.EventKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The {@code nodes} table: probe results, back-off after failures, and a person's drain and
 * ignore. Rows appear on first use; a node only in config and never touched has none.
 */
public final class NodeStore {

    private static final String ENSURE = "INSERT INTO nodes (name) VALUES (?) ON CONFLICT (name) DO NOTHING";
    private static final String COLUMNS = """
            SELECT name, drained_at, ignored_at, last_probe_at, last_seen_at, last_probe, consecutive_failures,
                   backoff_until, last_error, boot_id FROM nodes
            """;
    private static final String FIND = COLUMNS + " WHERE name = ?";
    private static final String LIST = COLUMNS + " ORDER BY name";
    private static final String ANSWERED = """
            INSERT INTO nodes (name, last_probe_at, last_seen_at, last_probe, boot_id) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET last_probe_at = excluded.last_probe_at, last_seen_at = excluded.last_seen_at,
                last_probe = excluded.last_probe, boot_id = excluded.boot_id, consecutive_failures = 0,
                backoff_until = NULL, last_error = NULL
            """;
    private static final String FAILED = """
            UPDATE nodes SET last_probe_at = ?, consecutive_failures = consecutive_failures + 1, last_error = ?
            WHERE name = ? RETURNING consecutive_failures
            """;
    private static final String BACKOFF = "UPDATE nodes SET backoff_until = ? WHERE name = ?";
    private static final String DRAIN = "UPDATE nodes SET drained_at = ? WHERE name = ? AND drained_at IS NULL";
    private static final String RESUME = "UPDATE nodes SET drained_at = NULL WHERE name = ? AND drained_at IS NOT NULL";
    private static final String IGNORE = "UPDATE nodes SET ignored_at = ? WHERE name = ? AND ignored_at IS NULL";
    private static final String UNIGNORE = "UPDATE nodes SET ignored_at = NULL WHERE name = ? AND ignored_at IS NOT NULL";

    private final Database database;
    private final EventStore events;

    public NodeStore(Database database) {
        this.database = database;
        this.events = new EventStore(database);
    }

    public Optional<NodeRecord> findNode(Connection connection, String name) throws SQLException {
        List<NodeRecord> nodes = query(connection, FIND, name);
        return nodes.stream().findFirst();
    }

    public Optional<NodeRecord> findNode(String name) {
        return database.read("read node " + name, conn -> findNode(conn, name));
    }

    /** Every node the queue has a row for, by name. */
    public List<NodeRecord> listNodes(Connection connection) throws SQLException {
        return list(connection);
    }

    /** Every node row, by name, over any connection (a read-only one included). */
    static List<NodeRecord> list(Connection connection) throws SQLException {
        return query(connection, LIST);
    }

    public List<NodeRecord> listNodes() {
        return database.read("read nodes", this::listNodes);
    }

    /** The node answered: keeps its probe and boot id, clears failures and back-off. */
    public void recordAnswer(Connection connection, String name, String probeJson, String bootId, Instant now)
            throws SQLException {
        Columns.update(connection, ANSWERED, name, now, now, probeJson, bootId);
    }

    public void recordAnswer(String name, String probeJson, String bootId, Instant now) {
        database.write("save node " + name, conn -> {
            recordAnswer(conn, name, probeJson, bootId, now);
            return null;
        });
    }

    /**
     * The node did not answer: counts the failure and backs off for {@code backoff.apply(failures)}
     * (the caller's policy: exponential, capped). Returns the updated node.
     */
    public NodeRecord recordFailure(Connection connection, String name, String error, Instant now,
                                    IntFunction<Duration> backoff) throws SQLException {
        Columns.update(connection, ENSURE, name);
        long failures = Columns.queryLong(connection, FAILED, now, error, name);
        Columns.update(connection, BACKOFF, now.plus(backoff.apply((int) failures)), name);
        return findNode(connection, name).orElseThrow();
    }

    public NodeRecord recordFailure(String name, String error, Instant now, IntFunction<Duration> backoff) {
        return database.write("save node " + name, conn -> recordFailure(conn, name, error, now, backoff));
    }

    /** No new placements on the node; records {@code drained}. False when it already was. */
    public boolean drain(Connection connection, String name, Instant now) throws SQLException {
        return flag(connection, name, DRAIN, EventKind.DRAINED, now, now, name);
    }

    public boolean drain(String name, Instant now) {
        return database.write("drain " + name, conn -> drain(conn, name, now));
    }

    /** Placements again; records {@code resumed}. False when it was not drained. */
    public boolean resume(Connection connection, String name, Instant now) throws SQLException {
        return flag(connection, name, RESUME, EventKind.RESUMED, now, name);
    }

    public boolean resume(String name, Instant now) {
        return database.write("resume " + name, conn -> resume(conn, name, now));
    }

    /** The node is neither probed nor used; records {@code ignored}. */
    public boolean ignore(Connection connection, String name, Instant now) throws SQLException {
        return flag(connection, name, IGNORE, EventKind.IGNORED, now, now, name);
    }

    public boolean ignore(String name, Instant now) {
        return database.write("ignore " + name, conn -> ignore(conn, name, now));
    }

    /** Undoes {@link #ignore}; records {@code unignored}. */
    public boolean unignore(Connection connection, String name, Instant now) throws SQLException {
        return flag(connection, name, UNIGNORE, EventKind.UNIGNORED, now, name);
    }

    public boolean unignore(String name, Instant now) {
        return database.write("unignore " + name, conn -> unignore(conn, name, now));
    }

    private boolean flag(Connection connection, String name, String sql, EventKind event, Instant now, Object... values)
            throws SQLException {
        Columns.update(connection, ENSURE, name);
        if (Columns.update(connection, sql, values) == 0) {
            return false;
        }
        events.append(connection, now, null, name, event, null);
        return true;
    }

    private static List<NodeRecord> query(Connection connection, String sql, Object... values) throws SQLException {
        List<NodeRecord> nodes = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(sql);
             ResultSet rows = Columns.bind(statement, values).executeQuery()) {
            while (rows.next()) {
                nodes.add(fromRow(rows));
            }
        }
        return nodes;
    }

    private static NodeRecord fromRow(ResultSet rows) throws SQLException {
        return new NodeRecord(rows.getString("name"), Columns.instant(rows, "drained_at"),
                Columns.instant(rows, "ignored_at"), Columns.instant(rows, "last_probe_at"),
                Columns.instant(rows, "last_seen_at"), rows.getString("last_probe"),
                rows.getInt("consecutive_failures"), Columns.instant(rows, "backoff_until"),
                rows.getString("last_error"), rows.getString("boot_id"));
    }
}
