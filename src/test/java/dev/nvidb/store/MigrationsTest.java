package dev.nvidb.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.JobState;
import dev.nvidb.model.JobStatus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each migration is tested against a frozen copy of the schema before it. For a future v3:
 * add {@code schema-v3.sql} (v2 plus the step, as shipped), keep the tests starting from the
 * v1 and v2 copies (they then exercise v1 → v3 and v2 → v3), and add one starting from v3.
 */
class MigrationsTest {

    @TempDir
    Path dir;

    @Test
    void migrationV1IsExactlyTheFrozenV1Schema() throws Exception {
        Path frozen = dir.resolve("frozen.db");
        try (Connection connection = connect(frozen)) {
            execute(connection, frozenSchema(1));
        }
        Path migrated = dir.resolve("migrated.db");
        try (Connection connection = connect(migrated)) {
            execute(connection, Migrations.all().get(0).sql());
        }
        assertEquals(schemaOf(frozen), schemaOf(migrated));
    }

    @Test
    void everyVersionIsExactlyItsFrozenSchema() throws Exception {
        for (int version = 1; version <= Migrations.CURRENT_VERSION; version++) {
            Path frozen = dir.resolve("frozen-v" + version + ".db");
            try (Connection connection = connect(frozen)) {
                execute(connection, frozenSchema(version));
            }
            Path migrated = dir.resolve("migrated-v" + version + ".db");
            try (Connection connection = connect(migrated)) {
                for (Migrations.Migration migration : Migrations.all().subList(0, version)) {
                    execute(connection, migration.sql());
                }
            }
            assertEquals(schemaOf(frozen), schemaOf(migrated), "schema v" + version);
        }
    }

    /** v2 counts failed launches in a column; v1 rows get the count their last_error and hold stood for. */
    @Test
    void frozenV1JobsGetTheLaunchFailuresTheirLastErrorStoodFor() throws Exception {
        Path file = dir.resolve("queue.db");
        try (Connection connection = connect(file)) {
            execute(connection, frozenSchema(1));
            execute(connection, """
                    INSERT INTO jobs (id, name, command, gpus, vram_mb, state, created_at, attempt, last_error)
                    VALUES (1, 'once', 'true', 0, 0, 'pending', 1, 1, 'launch failed on gpu-a: No space left on device');
                    INSERT INTO jobs (id, name, command, gpus, vram_mb, state, created_at, attempt, last_error, hold_reason)
                    VALUES (2, 'twice', 'true', 0, 0, 'pending', 1, 2, 'launch failed on gpu-a: No space left on device',
                            'its launch failed twice (launch failed on gpu-a: No space left on device); release it');
                    INSERT INTO jobs (id, name, command, gpus, vram_mb, state, created_at, attempt, last_error)
                    VALUES (3, 'retried', 'true', 0, 0, 'pending', 1, 1, 'its process vanished on gpu-a');
                    INSERT INTO jobs (id, name, command, gpus, vram_mb, state, created_at, finished_at, attempt, last_error)
                    VALUES (4, 'cancelled', 'true', 0, 0, 'cancelled', 1, 2, 1, 'launch failed on gpu-a: gone');
                    INSERT INTO jobs (id, name, command, gpus, vram_mb, state, created_at, started_at, finished_at,
                                      node, gpu_ids, gpu_uuids, attempt, launch_token, exit_code)
                    VALUES (5, 'done', 'true', 1, 512, 'completed', 1, 2, 3, 'gpu-a', '[0]', '["GPU-a0"]', 1, 't5', 0);
                    PRAGMA user_version = 1;
                    """);
        }
        try (Database database = Database.open(file)) {
            JobStore jobs = new JobStore(database);
            assertEquals(List.of(1, 2, 0, 0, 0), List.of(1L, 2L, 3L, 4L, 5L).stream()
                    .map(id -> jobs.getJob(id).launchFailures()).toList());
            assertTrue(jobs.getJob(2).job().held());
            assertEquals(new JobStatus.Ended(JobStatus.Outcome.COMPLETED, Instant.ofEpochMilli(3), 0,
                    new Assignment("gpu-a", List.of(0), List.of("GPU-a0"), 1, "t5"), Instant.ofEpochMilli(2)),
                    jobs.getJob(5).job().status());
        }
    }

    @Test
    void frozenV2DatabaseOpensAtTheCurrentSchemaKeepingItsRows() throws Exception {
        Path file = dir.resolve("queue.db");
        try (Connection connection = connect(file)) {
            execute(connection, frozenSchema(2));
            execute(connection, """
                    INSERT INTO jobs (name, command, gpus, vram_mb, state, created_at, attempt, launch_failures)
                    VALUES ('old', 'true', 1, 512, 'pending', 1, 1, 1);
                    PRAGMA user_version = 2;
                    """);
        }
        try (Database database = Database.open(file)) {
            assertEquals(Migrations.CURRENT_VERSION, database.read("read", Migrations::userVersion));
            StoredJob job = new JobStore(database).getJob(1);
            assertEquals(JobStatus.PENDING, job.job().status());
            assertEquals(1, job.launchFailures());
        }
        Path fresh = dir.resolve("fresh.db");
        Database.open(fresh).close();
        assertEquals(schemaOf(fresh), schemaOf(file), "a migrated v2 database has the schema of a new one");
    }

    /** v4 adds delivery claims; a v3 delivery row keeps what it recorded and is neither claimed nor backing off. */
    @Test
    void frozenV3DatabaseOpensAtTheCurrentSchemaKeepingItsDeliveries() throws Exception {
        Path file = dir.resolve("queue.db");
        try (Connection connection = connect(file)) {
            execute(connection, frozenSchema(3));
            execute(connection, """
                    INSERT INTO alerts (id, at, dedup_key, kind, severity, message) VALUES (1, 1, 'k1', 'job_failed', 'error', 'one');
                    INSERT INTO alert_deliveries (alert_id, channel, delivered_at, attempts, last_error) VALUES (1, 'log', 2, 1, NULL);
                    INSERT INTO alert_deliveries (alert_id, channel, delivered_at, attempts, last_error) VALUES (1, 'command', NULL, 2, 'exit 1');
                    PRAGMA user_version = 3;
                    """);
        }
        try (Database database = Database.open(file)) {
            assertEquals(Migrations.CURRENT_VERSION, database.read("read", Migrations::userVersion));
            assertEquals(List.of(), database.read("read", conn -> new AlertStore(database).listUndelivered(conn, "log")));
            assertEquals(1, database.read("read", conn -> new AlertStore(database).listUndelivered(conn, "command")).size());
            assertEquals(Long.valueOf(0), database.<Long>read("read", conn -> Columns.queryLong(conn,
                    "SELECT count(*) FROM alert_deliveries WHERE claimed_by IS NOT NULL OR next_attempt_at IS NOT NULL"
                            + " OR not_owed IS NOT NULL")));
        }
        Path fresh = dir.resolve("fresh.db");
        Database.open(fresh).close();
        assertEquals(schemaOf(fresh), schemaOf(file), "a migrated v3 database has the schema of a new one");
    }

    /** v5 adds sweeps; a v4 job has no key, group or array cell, and the new tables start empty. */
    @Test
    void frozenV4DatabaseOpensAtTheCurrentSchemaWithItsJobsOutsideAnySweep() throws Exception {
        Path file = dir.resolve("queue.db");
        try (Connection connection = connect(file)) {
            execute(connection, frozenSchema(4));
            execute(connection, """
                    INSERT INTO jobs (name, command, gpus, vram_mb, state, created_at) VALUES ('old', 'true', 1, 512, 'pending', 1);
                    PRAGMA user_version = 4;
                    """);
        }
        try (Database database = Database.open(file)) {
            assertEquals(Migrations.CURRENT_VERSION, database.read("read", Migrations::userVersion));
            StoredJob job = new JobStore(database).getJob(1);
            assertEquals(dev.nvidb.model.Sweep.NONE, job.job().spec().sweep());
            assertEquals(List.of(), new GroupStore(database).listGroups());
            assertTrue(database.read("read", conn -> new GroupStore(database).findLiveKey(conn, "k")).isEmpty());
        }
        Path fresh = dir.resolve("fresh.db");
        Database.open(fresh).close();
        assertEquals(schemaOf(fresh), schemaOf(file), "a migrated v4 database has the schema of a new one");
    }

    /**
     * v6 adds failure classes, OOM retries and exclusive jobs: v5 lost and timed-out jobs get that
     * class, failed ones with an exit status signal or exit_code, one that never ran none; every v5
     * job shares its GPUs and has no OOM retry.
     */
    @Test
    void frozenV5DatabaseOpensWithFailureClassesReadOffItsEndedJobs() throws Exception {
        Path file = dir.resolve("queue.db");
        try (Connection connection = connect(file)) {
            execute(connection, frozenSchema(5));
            execute(connection, """
                    INSERT INTO jobs (name, command, gpus, vram_mb, state, created_at, finished_at, exit_code) VALUES
                        ('pending', 'true', 1, 512, 'pending', 1, NULL, NULL),
                        ('exit', 'false', 1, 512, 'failed', 1, 2, 1),
                        ('killed', 'sleep 9', 1, 512, 'failed', 1, 2, 137),
                        ('never', 'true', 9, 512, 'failed', 1, 2, NULL),
                        ('lost', 'true', 1, 512, 'lost', 1, 2, NULL),
                        ('slow', 'true', 1, 512, 'timeout', 1, 2, NULL),
                        ('done', 'true', 1, 512, 'completed', 1, 2, 0);
                    PRAGMA user_version = 5;
                    """);
        }
        try (Database database = Database.open(file)) {
            assertEquals(Migrations.CURRENT_VERSION, database.read("read", Migrations::userVersion));
            JobStore jobs = new JobStore(database);
            java.util.List<String> classes = new ArrayList<>();
            for (long id = 1; id <= 7; id++) {
                dev.nvidb.model.Job job = jobs.getJob(id).job();
                classes.add(job.failureClass() == null ? null : job.failureClass().key());
                assertEquals(dev.nvidb.model.RunPolicy.DEFAULT, job.spec().policy());
            }
            assertEquals(java.util.Arrays.asList(null, "exit_code", "signal", null, "lost", "timeout", null), classes);
        }
        Path fresh = dir.resolve("fresh.db");
        Database.open(fresh).close();
        assertEquals(schemaOf(fresh), schemaOf(file), "a migrated v5 database has the schema of a new one");
    }

    /** A v6 database migrates to v7: its jobs do not ask for Slurm, and the rest of each row stays. */
    @Test
    void frozenV6DatabaseOpensWithJobsThatDoNotAskForSlurm() throws Exception {
        Path file = dir.resolve("queue.db");
        try (Connection connection = connect(file)) {
            execute(connection, frozenSchema(6));
            execute(connection, """
                    INSERT INTO jobs (name, command, gpus, vram_mb, state, created_at, exclusive, retry_oom) VALUES
                        ('pending', 'true', 1, 512, 'pending', 1, 1, 2);
                    PRAGMA user_version = 6;
                    """);
        }
        try (Database database = Database.open(file)) {
            assertEquals(Migrations.CURRENT_VERSION, database.read("read", Migrations::userVersion));
            assertEquals(new dev.nvidb.model.RunPolicy(true, 2, false), new JobStore(database).getJob(1).job().spec().policy());
        }
        Path fresh = dir.resolve("fresh.db");
        Database.open(fresh).close();
        assertEquals(schemaOf(fresh), schemaOf(file), "a migrated v6 database has the schema of a new one");
    }

    /**
     * A v7 database migrates to v8: each owed kill gets its attempt from its directory, once; a
     * directory the queue did not make (no number last) leaves it null, and so does a reap of no job.
     */
    @Test
    void frozenV7DatabaseOpensWithTheAttemptOfEachOwedKill() throws Exception {
        Path file = dir.resolve("queue.db");
        try (Connection connection = connect(file)) {
            execute(connection, frozenSchema(7));
            execute(connection, """
                    INSERT INTO pending_reaps (node, pid, job_id, launch_token, job_dir, reason, created_at) VALUES
                        ('gpu-a', NULL, 4, 'token-4-2', '~/.nvidb/jobs/q1a2b3c4/4/2', 'cancelled', 1),
                        ('gpu-a', NULL, 5, 'token-5-1', '/scratch/jobs/q1a2b3c4/5/12', 'cancelled', 1),
                        ('gpu-b', NULL, 6, 'token-6-x', '/elsewhere/not-an-attempt', 'cancelled', 1),
                        ('gpu-b', 77, NULL, NULL, NULL, 'lost', 1);
                    PRAGMA user_version = 7;
                    """);
        }
        try (Database database = Database.open(file)) {
            assertEquals(Migrations.CURRENT_VERSION, database.read("read", Migrations::userVersion));
            List<Integer> attempts = new ReapStore(database).list(null).stream()
                    .map(reap -> reap.target().attempt()).toList();
            assertEquals(java.util.Arrays.asList(2, 12, null, null), attempts);
        }
        Path fresh = dir.resolve("fresh.db");
        Database.open(fresh).close();
        assertEquals(schemaOf(fresh), schemaOf(file), "a migrated v7 database has the schema of a new one");
    }

    @Test
    void frozenV1DatabaseMigratesToTheCurrentSchemaKeepingItsRows() throws Exception {
        Path file = dir.resolve("queue.db");
        try (Connection connection = connect(file)) {
            execute(connection, frozenSchema(1));
            execute(connection, """
                    INSERT INTO jobs (name, command, gpus, vram_mb, state, created_at) VALUES ('old', 'true', 1, 512, 'pending', 1);
                    INSERT INTO events (at, job_id, kind) VALUES (1, 1, 'submitted');
                    PRAGMA user_version = 1;
                    """);
        }
        try (Database database = Database.open(file)) {
            assertEquals(Migrations.CURRENT_VERSION, database.read("read", Migrations::userVersion));
            StoredJob job = new JobStore(database).getJob(1);
            assertEquals("old", job.job().spec().name());
            assertEquals(JobState.PENDING, job.job().state());
            assertEquals(List.of("submitted"), new EventStore(database).listSince(0, null, 10).stream()
                    .map(Event::kind).toList());
        }
        Path fresh = dir.resolve("fresh.db");
        Database.open(fresh).close();
        assertEquals(schemaOf(fresh), schemaOf(file), "a migrated v1 database has the schema of a new one");
    }

    @Test
    void migrationsAreNumberedOneByOne() {
        for (int i = 0; i < Migrations.all().size(); i++) {
            assertEquals(i + 1, Migrations.all().get(i).version());
        }
        assertEquals(Migrations.all().size(), Migrations.CURRENT_VERSION);
    }

    static String frozenSchema(int version) throws IOException {
        try (InputStream in = MigrationsTest.class.getResourceAsStream("/store/schema-v" + version + ".sql")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Connection connect(Path file) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + file);
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    /** Every table, index and trigger with its normalised SQL, in name order. */
    private static List<String> schemaOf(Path file) throws SQLException {
        List<String> schema = new ArrayList<>();
        try (Connection connection = connect(file);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")) {
            while (rows.next()) {
                String sql = rows.getString("sql") == null ? "" : rows.getString("sql").replaceAll("\\s+", " ");
                schema.add(rows.getString("type") + " " + rows.getString("name") + ": " + sql);
            }
        }
        return schema;
    }
}
