package dev.nvidb.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/** The {@code meta} key/value table: small facts about the queue such as the last tick's time. */
public final class MetaStore {

    /** When the last tick finished (epoch milliseconds). */
    public static final String LAST_TICK_AT = "last_tick_at";
    /** When the last tick took the lease (its reads of the queue come after this). */
    public static final String LAST_TICK_STARTED_AT = "last_tick_started_at";

    private static final String GET = "SELECT value FROM meta WHERE key = ?";
    private static final String PUT = """
            INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """;
    private static final String DELETE = "DELETE FROM meta WHERE key = ?";

    private final Database database;

    public MetaStore(Database database) {
        this.database = database;
    }

    public Optional<String> get(Connection connection, String key) throws SQLException {
        try (var statement = connection.prepareStatement(GET);
             var rows = Columns.bind(statement, key).executeQuery()) {
            return rows.next() ? Optional.of(rows.getString(1)) : Optional.empty();
        }
    }

    public Optional<String> get(String key) {
        return database.read("read " + key, conn -> get(conn, key));
    }

    /** Sets {@code key} to {@code value}; a null value deletes it. */
    public void put(Connection connection, String key, String value) throws SQLException {
        if (value == null) {
            Columns.update(connection, DELETE, key);
        } else {
            Columns.update(connection, PUT, key, value);
        }
    }

    public void put(String key, String value) {
        database.write("save " + key, conn -> {
            put(conn, key, value);
            return null;
        });
    }

    public Optional<Instant> getInstant(Connection connection, String key) throws SQLException {
        return get(connection, key).map(millis -> Instant.ofEpochMilli(Long.parseLong(millis)));
    }

    public Optional<Instant> getInstant(String key) {
        return database.read("read " + key, conn -> getInstant(conn, key));
    }

    public void putInstant(Connection connection, String key, Instant value) throws SQLException {
        put(connection, key, value == null ? null : Long.toString(value.toEpochMilli()));
    }

    public void putInstant(String key, Instant value) {
        put(key, value == null ? null : Long.toString(value.toEpochMilli()));
    }
}
