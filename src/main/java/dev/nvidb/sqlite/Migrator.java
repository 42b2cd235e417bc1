package dev.nvidb.sqlite;

import dev.nvidb.error.StoreException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Brings a file to its {@link Schema}, or checks that it can be read: a file from a newer nvidb
 * is refused, never downgraded, and a marked schema refuses another SQLite database; a refused
 * file is left as it was.
 */
public final class Migrator {

    /** How the file is switched to WAL mode before its first migration. */
    public enum WalSwitch {
        /** Retried with jitter while SQLite reports busy (other clients creating the same file), until the busy timeout; must answer {@code wal}. */
        RETRIED,
        /** One {@code PRAGMA journal_mode=WAL}; its answer is not checked, busy fails the opening. */
        ONCE
    }

    private Migrator() {
    }

    /**
     * Brings the schema of {@code connection}'s file to {@link Schema#currentVersion()}. The cheap
     * path (already current, and marked when the schema has a mark) is one or two pragma reads.
     * Otherwise the file is checked, switched to WAL, and the steps run in one {@code BEGIN IMMEDIATE}
     * transaction that checks the version again after taking the lock, so concurrent openers
     * migrate once; each step sets {@code user_version}, the mark is set last.
     */
    public static void migrate(Connection connection, Path file, Schema schema, WalSwitch wal, Duration busyTimeout)
            throws SQLException {
        int version = userVersion(connection);
        int mark = schema.applicationId();
        if (version == schema.currentVersion() && (mark == 0 || applicationId(connection) == mark)) {
            return;
        }
        refuse(connection, file, schema, version);
        switchToWal(connection, file, wal, busyTimeout);
        List<String> steps = schema.steps();
        try (Statement statement = connection.createStatement()) {
            statement.execute("BEGIN IMMEDIATE");
            boolean committed = false;
            try {
                version = userVersion(connection);
                refuse(connection, file, schema, version);
                for (int step = version; step < steps.size(); step++) {
                    statement.executeUpdate(steps.get(step));
                    statement.executeUpdate("PRAGMA user_version = " + (step + 1));
                }
                if (mark != 0) {
                    statement.execute("PRAGMA application_id = " + mark);
                }
                statement.execute("COMMIT");
                committed = true;
            } finally {
                if (!committed) {
                    Transactions.rollback(statement);
                }
            }
        }
    }

    /** Checks, without changing it, that {@code connection}'s file is one this build reads; returns its version (0: empty). */
    public static int check(Connection connection, Path file, Schema schema) throws SQLException {
        int version = userVersion(connection);
        refuse(connection, file, schema, version);
        return version;
    }

    /** {@code PRAGMA user_version}. */
    public static int userVersion(Connection connection) throws SQLException {
        return pragma(connection, "user_version");
    }

    /** {@code PRAGMA application_id}. */
    public static int applicationId(Connection connection) throws SQLException {
        return pragma(connection, "application_id");
    }

    private static void refuse(Connection connection, Path file, Schema schema, int version) throws SQLException {
        int mark = schema.applicationId();
        if (mark != 0) {
            int id = applicationId(connection);
            boolean empty = version == 0 && id == 0 && !hasTables(connection);
            if (!empty && id != mark) {
                throw schema.foreign(file);
            }
        }
        if (version > schema.currentVersion()) {
            throw schema.newer(file, version);
        }
    }

    private static boolean hasTables(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT count(*) FROM sqlite_master")) {
            return rows.next() && rows.getInt(1) > 0;
        }
    }

    private static int pragma(Connection connection, String name) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("PRAGMA " + name)) {
            return rows.next() ? rows.getInt(1) : 0;
        }
    }

    private static void switchToWal(Connection connection, Path file, WalSwitch wal, Duration busyTimeout)
            throws SQLException {
        if (wal == WalSwitch.ONCE) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA journal_mode=WAL");
            }
            return;
        }
        long deadline = System.nanoTime() + busyTimeout.toNanos();
        while (true) {
            String mode = null;
            SQLException busy = null;
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("PRAGMA journal_mode = WAL")) {
                mode = rows.next() ? rows.getString(1) : null;
            } catch (SQLException e) {
                if (!SqlFailure.busy(e)) {
                    throw e;
                }
                busy = e;
            }
            if ("wal".equalsIgnoreCase(mode)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                String why = busy != null ? SqlFailure.reason(busy) : "the file system kept journal mode " + mode;
                throw new StoreException("cannot switch " + file + " to WAL mode: " + why,
                        "another nvidb process held the database too long; try again", busy);
            }
            // The switch does not wait on the busy handler; back off a little, with jitter.
            LockSupport.parkNanos(Duration.ofMillis(1 + ThreadLocalRandom.current().nextInt(10)).toNanos());
        }
    }
}
