package dev.nvidb.store;

import dev.nvidb.error.StoreException;
import dev.nvidb.sqlite.Migrator;
import dev.nvidb.sqlite.Schema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

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

    /** queue.db's schema for the base: its steps; queue.db carries no application id. */
    private static final Schema SCHEMA = new Schema() {
        private final List<String> steps = ALL.stream().map(Migration::sql).toList();

        @Override
        public List<String> steps() {
            return steps;
        }

        @Override
        public StoreException newer(Path file, int version) {
            return new StoreException(file.getFileName() + " was written by a newer nvidb (schema " + version
                    + ", this build knows " + CURRENT_VERSION + "); upgrade nvidb",
                    "the file is " + file + "; it was left untouched");
        }
    };

    /**
     * Brings the schema to {@link #CURRENT_VERSION} ({@link Migrator#migrate}). The cheap path
     * (already current) is one pragma read. Otherwise WAL is switched on (retried: the switch can
     * report busy while other clients create the same file) and the steps run in one
     * {@code BEGIN IMMEDIATE} transaction that re-reads the version after taking the lock, so
     * concurrent openers migrate once.
     */
    static void migrate(Connection connection, Path file, Duration busyTimeout) throws SQLException {
        Migrator.migrate(connection, file, SCHEMA, Migrator.WalSwitch.RETRIED, busyTimeout);
    }

    static int userVersion(Connection connection) throws SQLException {
        return Migrator.userVersion(connection);
    }
}
