package dev.nvidb.store;

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
 * Every schema change of {@code queue.db}, in order, keyed on {@code PRAGMA user_version}.
 * Migrations are only ever appended; a shipped one is never edited (a test compares v1 with
 * its frozen copy). A database written by a newer nvidb is refused, never downgraded. Each
 * version's SQL lives in its own {@code SchemaV<N>} class.
 */
public final class Migrations {

    /** One step from {@code version - 1} to {@code version}. */
    record Migration(int version, String description, String sql) {
    }

    private static final List<Migration> ALL = List.of(
            new Migration(1, "queue: jobs, events, alerts, nodes, pending reaps, lease, meta", SchemaV1.DDL),
            new Migration(2, "jobs.launch_failures: failed launches counted, not parsed from last_error",
                    SchemaV2.DDL),
            new Migration(3, "jobs.submit_env: the submitter's environment for local jobs; cancel_requests: cancels"
                    + " owed while a node does not answer", SchemaV3.DDL),
            new Migration(4, "alert_deliveries: claims, back-off and not-owed deliveries; notify_channels: where each"
                    + " channel's delivery began", SchemaV4.DDL),
            new Migration(5, "jobs.job_key, group_name, array_index; job_groups: array caps and fail-fast holds;"
                    + " op_ids: answers of --op-id", SchemaV5.DDL),
            new Migration(6, "jobs.failure_class, retry_oom, oom_retries, exclusive: failure classes, OOM retries"
                    + " with more memory, exclusive GPUs", SchemaV6.DDL),
            new Migration(7, "jobs.allow_slurm: --allow-slurm, a job that may go to a Slurm node", SchemaV7.DDL),
            new Migration(8, "pending_reaps.job_attempt: the attempt a kill is owed to, not parsed from its directory",
                    SchemaV8.DDL));

    /** The schema version this build writes. */
    public static final int CURRENT_VERSION = ALL.size();

    private Migrations() {
    }

    static List<Migration> all() {
        return ALL;
    }

    /**
     * Brings the schema to {@link #CURRENT_VERSION}. The cheap path (already current) is one
     * pragma read. Otherwise WAL is switched on (retried: the switch can report busy while other
     * clients create the same file) and the steps run in one {@code BEGIN IMMEDIATE} transaction
     * that re-reads the version after taking the lock, so concurrent openers migrate once.
     */
    static void migrate(Connection connection, Path file, Duration busyTimeout) throws SQLException {
        int version = userVersion(connection);
        if (version == CURRENT_VERSION) {
            return;
        }
        refuseNewer(version, file);
        enableWal(connection, file, busyTimeout);
        try (Statement statement = connection.createStatement()) {
            statement.execute("BEGIN IMMEDIATE");
            boolean committed = false;
            try {
                version = userVersion(connection);
                refuseNewer(version, file);
                for (Migration migration : ALL) {
                    if (migration.version() > version) {
                        statement.executeUpdate(migration.sql());
                        statement.executeUpdate("PRAGMA user_version = " + migration.version());
                    }
                }
                statement.execute("COMMIT");
                committed = true;
            } finally {
                if (!committed) {
                    rollback(statement);
                }
            }
        }
    }

    static int userVersion(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("PRAGMA user_version")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private static void refuseNewer(int version, Path file) {
        if (version > CURRENT_VERSION) {
            throw new StoreException(file.getFileName() + " was written by a newer nvidb (schema " + version
                    + ", this build knows " + CURRENT_VERSION + "); upgrade nvidb",
                    "the file is " + file + "; it was left untouched");
        }
    }

    private static void enableWal(Connection connection, Path file, Duration busyTimeout) throws SQLException {
        long deadline = System.nanoTime() + busyTimeout.toNanos();
        while (true) {
            String mode = null;
            SQLException busy = null;
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("PRAGMA journal_mode = WAL")) {
                mode = rows.next() ? rows.getString(1) : null;
            } catch (SQLException e) {
                if (!SqlErrors.busy(e)) {
                    throw e;
                }
                busy = e;
            }
            if ("wal".equalsIgnoreCase(mode)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                String why = busy != null ? SqlErrors.reason(busy) : "the file system kept journal mode " + mode;
                throw new StoreException("cannot switch " + file + " to WAL mode: " + why,
                        "another nvidb process held the database too long; try again", busy);
            }
            // The switch does not wait on the busy handler; back off a little, with jitter.
            LockSupport.parkNanos(Duration.ofMillis(1 + ThreadLocalRandom.current().nextInt(10)).toNanos());
        }
    }

    private static void rollback(Statement statement) {
        try {
            statement.execute("ROLLBACK");
        } catch (SQLException alreadyEnded) {
            // Nothing to undo.
        }
    }
}
