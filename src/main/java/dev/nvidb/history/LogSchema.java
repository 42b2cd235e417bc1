package dev.nvidb.history;

import dev.nvidb.error.StoreException;
import dev.nvidb.sqlite.Migrator;
import dev.nvidb.sqlite.Schema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * The schema of {@code gpu_log.db}, keyed on {@code PRAGMA user_version} like {@code queue.db}'s:
 * steps are only ever appended, a file written by a newer nvidb is refused, and the file says
 * what it is with {@code PRAGMA application_id}, so {@code nvidb web} pointed at a queue database
 * or any other SQLite file says so instead of failing on a missing table.
 *
 * <p>Sizes: a GPU sample is one {@code WITHOUT ROWID} row of small integers (about 30 bytes on
 * disk); what does not change from one sample to the next (a GPU's name, UUID, total memory and
 * power limit) lives once in {@code gpus}; a process is one {@code process_spans} row from when
 * it was first seen to when it was last seen, not a row per sample.
 */
final class LogSchema {

    /** "nvlg": marks a GPU log among SQLite files. */
    static final int APPLICATION_ID = 0x6E766C67;

    private static final String V1 = """
            CREATE TABLE sessions (
                id          INTEGER PRIMARY KEY,
                started_at  INTEGER NOT NULL,          -- epoch milliseconds
                ended_at    INTEGER,                   -- null while it runs, or when it was killed
                interval_ms INTEGER NOT NULL,
                host        TEXT    NOT NULL,          -- the machine that ran nvidb log
                pid         INTEGER NOT NULL,
                nodes       TEXT    NOT NULL,          -- node names, one per line, in display order
                end_reason  TEXT,                      -- interrupted, duration, error: ...
                samples     INTEGER NOT NULL DEFAULT 0,
                failures    INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE nodes (
                id   INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE
            );
            CREATE TABLE gpus (
                id            INTEGER PRIMARY KEY,
                node_id       INTEGER NOT NULL REFERENCES nodes(id),
                gpu_index     INTEGER NOT NULL,
                uuid          TEXT    NOT NULL DEFAULT '',
                name          TEXT,
                mem_total_mb  INTEGER,
                power_limit_w REAL,
                UNIQUE (node_id, gpu_index, uuid)
            );
            CREATE TABLE samples (
                id         INTEGER PRIMARY KEY,
                session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                node_id    INTEGER NOT NULL REFERENCES nodes(id),
                at         INTEGER NOT NULL,            -- epoch milliseconds when the probe began
                elapsed_ms INTEGER NOT NULL,
                failure    TEXT                         -- null: the node answered with its GPUs
            );
            CREATE INDEX samples_by_session_time ON samples (session_id, at);
            CREATE INDEX samples_by_time ON samples (at);
            CREATE TABLE gpu_samples (
                sample_id     INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
                gpu_id        INTEGER NOT NULL REFERENCES gpus(id),
                util          INTEGER,
                mem_util      INTEGER,
                mem_used_mb   INTEGER,
                temperature_c INTEGER,
                power_dw      INTEGER,                  -- tenths of a watt
                processes     INTEGER NOT NULL,
                PRIMARY KEY (sample_id, gpu_id)
            ) WITHOUT ROWID;
            CREATE TABLE process_spans (
                id          INTEGER PRIMARY KEY,
                session_id  INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                gpu_id      INTEGER NOT NULL REFERENCES gpus(id),
                pid         INTEGER NOT NULL,
                user        TEXT,
                name        TEXT,
                command     TEXT,
                first_seen  INTEGER NOT NULL,
                last_seen   INTEGER NOT NULL,
                mem_mb      INTEGER,
                peak_mem_mb INTEGER
            );
            CREATE INDEX process_spans_by_session ON process_spans (session_id, gpu_id);
            CREATE INDEX process_spans_by_time ON process_spans (last_seen);
            """;

    /** Every step, in order; index i brings the file from version i to i + 1. */
    private static final List<String> STEPS = List.of(V1);

    /** The schema version this build writes. */
    static final int CURRENT_VERSION = STEPS.size();

    /** The GPU log's schema for the base: its steps, its mark, and its refusals. */
    private static final Schema SCHEMA = new Schema() {
        @Override
        public List<String> steps() {
            return STEPS;
        }

        @Override
        public int applicationId() {
            return APPLICATION_ID;
        }

        @Override
        public StoreException newer(Path file, int version) {
            return new StoreException(file + " was written by a newer nvidb (GPU log schema " + version
                    + ", this one reads up to " + CURRENT_VERSION + ")", "upgrade nvidb to read it");
        }

        @Override
        public StoreException foreign(Path file) {
            return new StoreException(file + " is not a GPU log (it is another SQLite database)",
                    "point --db-path at the file 'nvidb log' writes (default ~/.nvidb/gpu_log.db)");
        }
    };

    private LogSchema() {
    }

    /**
     * Creates or upgrades the schema of a file opened for writing ({@link Migrator#migrate}): a
     * single {@code journal_mode=WAL} before the first step, its answer not checked.
     */
    static void migrate(Connection connection, Path file, Duration busyTimeout) throws SQLException {
        Migrator.migrate(connection, file, SCHEMA, Migrator.WalSwitch.ONCE, busyTimeout);
    }

    /** Checks that an existing file opened for reading is a GPU log this build can read. */
    static void check(Connection connection, Path file) throws SQLException {
        if (Migrator.check(connection, file, SCHEMA) == 0) {
            throw new StoreException(file + " is not a GPU log (it is empty)", "run 'nvidb log' to start one");
        }
    }
}
