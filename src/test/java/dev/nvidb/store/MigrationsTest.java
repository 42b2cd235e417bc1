package dev.nvidb.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.model.JobState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each migration is tested against a frozen copy of the schema before it. For a future v2:
 * add {@code schema-v2.sql}, keep {@link #frozenV1DatabaseMigratesToTheCurrentSchemaKeepingItsRows}
 * (it then exercises v1 → v2), and add the same test starting from the v2 copy.
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
