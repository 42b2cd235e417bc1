package dev.nvidb.store;

import dev.nvidb.model.EventKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The event log: appended in the same transaction as the change it records, read by cursor.
 * Because writers are serialised by {@code BEGIN IMMEDIATE}, ids are handed out in commit
 * order, so a reader paging with {@code since} sees every event exactly once.
 */
public final class EventStore {

    private static final String APPEND = """
            INSERT INTO events (at, job_id, node, kind, detail) VALUES (?, ?, ?, ?, ?) RETURNING id
            """;
    private static final String SINCE = """
            SELECT id, at, job_id, node, kind, detail FROM events
            WHERE id > ? AND (? IS NULL OR job_id = ?) ORDER BY id LIMIT ?
            """;
    private static final String LAST_ID = "SELECT COALESCE(MAX(id), 0) FROM events";

    private final Database database;

    public EventStore(Database database) {
        this.database = database;
    }

    /**
     * Appends an event in the caller's transaction and returns its id. {@code detail} holds
     * strings, numbers, booleans, nulls and lists of those, or is null.
     */
    public long append(Connection connection, Instant at, Long jobId, String node, EventKind kind,
                       Map<String, ?> detail) throws SQLException {
        String json = detail == null ? null : JsonText.write(detail);
        return Columns.queryLong(connection, APPEND, at, jobId, node, kind.key(), json);
    }

    /** Appends an event in its own transaction. */
    public long append(Instant at, Long jobId, String node, EventKind kind, Map<String, ?> detail) {
        return database.write("record event " + kind.key(), conn -> append(conn, at, jobId, node, kind, detail));
    }

    /** At most {@code limit} events with an id above {@code cursor}, oldest first, optionally of one job. */
    public List<Event> listSince(Connection connection, long cursor, Long jobId, int limit) throws SQLException {
        List<Event> events = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(SINCE);
             ResultSet rows = Columns.bind(statement, cursor, jobId, jobId, limit).executeQuery()) {
            while (rows.next()) {
                events.add(fromRow(rows));
            }
        }
        return events;
    }

    /** {@link #listSince(Connection, long, Long, int)} in its own read transaction. */
    public List<Event> listSince(long cursor, Long jobId, int limit) {
        return database.read("read events", conn -> listSince(conn, cursor, jobId, limit));
    }

    /** The id of the newest event (0 when there is none): the cursor for "from now on". */
    public long lastId() {
        return database.read("read events", conn -> Columns.queryLong(conn, LAST_ID));
    }

    private static Event fromRow(ResultSet rows) throws SQLException {
        return new Event(rows.getLong("id"), Columns.instant(rows, "at"), Columns.longOrNull(rows, "job_id"),
                rows.getString("node"), rows.getString("kind"), rows.getString("detail"));
    }
}
