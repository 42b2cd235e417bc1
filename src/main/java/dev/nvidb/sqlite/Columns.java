package dev.nvidb.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;

/**
 * Null-aware reading and binding of the column types nvidb's databases use: epoch-millisecond
 * times, nullable numbers (a value the driver did not report is NULL, never 0). Open for
 * extension only so a package can give the helpers its own name ({@code store.Columns}).
 */
public class Columns {

    protected Columns() {
    }

    public static Instant instant(ResultSet rows, String column) throws SQLException {
        long millis = rows.getLong(column);
        return rows.wasNull() ? null : Instant.ofEpochMilli(millis);
    }

    public static Long longOrNull(ResultSet rows, String column) throws SQLException {
        long value = rows.getLong(column);
        return rows.wasNull() ? null : value;
    }

    public static Long longOrNull(ResultSet rows, int column) throws SQLException {
        long value = rows.getLong(column);
        return rows.wasNull() ? null : value;
    }

    public static Integer intOrNull(ResultSet rows, String column) throws SQLException {
        int value = rows.getInt(column);
        return rows.wasNull() ? null : value;
    }

    public static Integer intOrNull(ResultSet rows, int column) throws SQLException {
        int value = rows.getInt(column);
        return rows.wasNull() ? null : value;
    }

    public static Double doubleOrNull(ResultSet rows, int column) throws SQLException {
        double value = rows.getDouble(column);
        return rows.wasNull() ? null : value;
    }

    public static Long millis(Instant instant) {
        return instant == null ? null : instant.toEpochMilli();
    }

    public static void setInt(PreparedStatement statement, int index, Integer value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.INTEGER);
        } else {
            statement.setInt(index, value);
        }
    }

    public static void setLong(PreparedStatement statement, int index, Long value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.INTEGER);
        } else {
            statement.setLong(index, value);
        }
    }

    public static void setDouble(PreparedStatement statement, int index, Double value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.REAL);
        } else {
            statement.setDouble(index, value);
        }
    }

    /** Binds {@code values} to parameters 1..n; null, Instant (as millis), Boolean (as 0/1), numbers and strings. */
    public static PreparedStatement bind(PreparedStatement statement, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            Object value = values[i];
            int index = i + 1;
            if (value == null) {
                statement.setNull(index, Types.NULL);
            } else if (value instanceof Instant instant) {
                statement.setLong(index, instant.toEpochMilli());
            } else if (value instanceof Boolean flag) {
                statement.setInt(index, flag ? 1 : 0);
            } else if (value instanceof Integer number) {
                statement.setInt(index, number);
            } else if (value instanceof Long number) {
                statement.setLong(index, number);
            } else if (value instanceof String text) {
                statement.setString(index, text);
            } else {
                throw new IllegalArgumentException("cannot bind " + value.getClass().getSimpleName());
            }
        }
        return statement;
    }

    /** Runs an INSERT/UPDATE/DELETE with {@code values} bound and returns the number of rows changed. */
    public static int update(Connection connection, String sql, Object... values) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            return bind(statement, values).executeUpdate();
        }
    }

    /** Runs a statement that yields one integer (a count, or an id through RETURNING); null when no row. */
    public static Long queryLong(Connection connection, String sql, Object... values) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql);
             ResultSet rows = bind(statement, values).executeQuery()) {
            if (!rows.next()) {
                return null;
            }
            long value = rows.getLong(1);
            return rows.wasNull() ? null : value;
        }
    }
}
