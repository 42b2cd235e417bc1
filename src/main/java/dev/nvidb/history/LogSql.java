package dev.nvidb.history;

import dev.nvidb.error.StoreException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The JDBC plumbing of the GPU log: creating and connecting its file, SQLite's failures as one
 * sentence each, the shared filters of its queries, and null-aware column reads and parameters
 * (a metric the driver did not report is NULL, never 0).
 */
final class LogSql {

    private static final int BUSY_TIMEOUT_MS = 10_000;

    private LogSql() {
    }

    static void filters(StringBuilder sql, List<Object> args, String node, Instant from, Instant to) {
        if (node != null) {
            sql.append(" AND n.name = ?");
            args.add(node);
        }
        if (from != null) {
            sql.append(" AND s.at >= ?");
            args.add(from.toEpochMilli());
        }
        if (to != null) {
            sql.append(" AND s.at < ?");
            args.add(to.toEpochMilli());
        }
    }

    static PreparedStatement prepare(Connection connection, String sql, List<Object> args) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < args.size(); i++) {
            statement.setObject(i + 1, args.get(i));
        }
        return statement;
    }

    static void rollback(Statement statement) {
        try {
            statement.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // Nothing was open, or the connection is gone: the original error says more.
        }
    }

    static StoreException failure(String action, Path file, SQLException e) {
        String reason = reason(e);
        SQLiteErrorCode code = e instanceof SQLiteException sqlite ? sqlite.getResultCode() : null;
        if (code != null && (code.name().startsWith("SQLITE_NOTADB") || code.name().startsWith("SQLITE_CORRUPT"))) {
            return new StoreException(file + " is not a readable GPU log (" + reason + ")",
                    "move it aside; 'nvidb log' starts a new one", e);
        }
        if (code != null && (code.name().startsWith("SQLITE_BUSY") || code.name().startsWith("SQLITE_LOCKED"))) {
            return new StoreException("cannot " + action + " in " + file + ": " + reason,
                    "another process held the GPU log too long; try again", e);
        }
        return new StoreException("cannot " + action + " in " + file + ": " + reason, null, e);
    }

    static String reason(SQLException e) {
        String message = String.valueOf(e.getMessage());
        int open = message.lastIndexOf('(');
        if (message.startsWith("[SQLITE_") && open >= 0 && message.endsWith(")")) {
            return message.substring(open + 1, message.length() - 1);
        }
        return message;
    }

    static void create(Path file) {
        Path parent = file.getParent();
        if (Files.isDirectory(file)) {
            throw new StoreException(file + " is a directory, not a GPU log file",
                    "give a file path, such as " + file.resolve("gpu_log.db"));
        }
        try {
            if (parent != null && !Files.isDirectory(parent)) {
                Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException alreadyThere) {
            // Opened as it is.
        } catch (java.nio.file.AccessDeniedException e) {
            throw new StoreException("cannot create " + file + ": permission denied on " + e.getFile(),
                    "check that you may write to " + parent + ", or give --db-path", e);
        } catch (java.nio.file.FileSystemException e) {
            throw new StoreException("cannot create " + file + ": " + (e.getReason() != null ? e.getReason()
                    : "no such directory") + " (" + e.getFile() + ")", "check that you may write to " + parent
                    + ", or give --db-path", e);
        } catch (IOException | UnsupportedOperationException e) {
            throw new StoreException("cannot create " + file + ": " + e.getMessage(), "check that you may write to " + parent, e);
        }
    }

    static Connection connect(Path file) {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(BUSY_TIMEOUT_MS);
        config.enforceForeignKeys(true);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        try {
            return config.createConnection("jdbc:sqlite:" + file);
        } catch (SQLException e) {
            throw failure("open", file, e);
        }
    }

    static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Already failing with a better message.
        }
    }

    static String emptyToNull(String text) {
        return text == null || text.isEmpty() ? null : text;
    }

    static Integer nullableInt(ResultSet r, int column) throws SQLException {
        int value = r.getInt(column);
        return r.wasNull() ? null : value;
    }

    static Long nullableLong(ResultSet r, int column) throws SQLException {
        long value = r.getLong(column);
        return r.wasNull() ? null : value;
    }

    static Double nullableDouble(ResultSet r, int column) throws SQLException {
        double value = r.getDouble(column);
        return r.wasNull() ? null : value;
    }

    static void setInt(PreparedStatement statement, int index, Integer value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.INTEGER);
        } else {
            statement.setInt(index, value);
        }
    }

    static void setLong(PreparedStatement statement, int index, Long value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.INTEGER);
        } else {
            statement.setLong(index, value);
        }
    }

    static void setDouble(PreparedStatement statement, int index, Double value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.REAL);
        } else {
            statement.setDouble(index, value);
        }
    }
}
