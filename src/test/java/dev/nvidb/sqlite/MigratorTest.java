package dev.nvidb.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.nvidb.error.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigratorTest {

    private static final Duration BUSY = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private record TestSchema(List<String> steps, int applicationId) implements Schema {

        @Override
        public StoreException newer(Path file, int version) {
            return new StoreException(file.getFileName() + " is newer: " + version);
        }

        @Override
        public StoreException foreign(Path file) {
            return new StoreException(file.getFileName() + " is foreign");
        }
    }

    private static final TestSchema MARKED = new TestSchema(List.of("CREATE TABLE a (x)", "CREATE TABLE b (y)"), 0x74657374);

    @Test
    void aNewFileIsOwnerOnlyInWalModeAtTheCurrentVersionAndMarked() throws Exception {
        Path file = dir.resolve("new/data.db");
        SqliteFile.createOwnerOnly(file, null);
        for (Migrator.WalSwitch wal : Migrator.WalSwitch.values()) {
            Path each = dir.resolve(wal + ".db");
            SqliteFile.createOwnerOnly(each, null);
            try (Connection connection = SqliteFile.open(each, BUSY, Wording.plain(), "open", c ->
                    Migrator.migrate(c, each, MARKED, wal, BUSY))) {
                assertEquals(2, Migrator.userVersion(connection));
                assertEquals(MARKED.applicationId(), Migrator.applicationId(connection));
                assertEquals("wal", text(connection, "PRAGMA journal_mode"));
                assertEquals("1", text(connection, "PRAGMA foreign_keys"));
                assertEquals("1", text(connection, "PRAGMA synchronous"));
                assertEquals("10000", text(connection, "PRAGMA busy_timeout"));
            }
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
    }

    @Test
    void anOlderFileGetsTheMissingStepsOnly() throws Exception {
        Path file = dir.resolve("old.db");
        try (Connection connection = SqliteFile.connect(file, BUSY); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE a (x)");
            statement.execute("PRAGMA user_version = 1");
            statement.execute("PRAGMA application_id = " + MARKED.applicationId());
        }
        try (Connection connection = SqliteFile.connect(file, BUSY)) {
            Migrator.migrate(connection, file, MARKED, Migrator.WalSwitch.RETRIED, BUSY);
            assertEquals(2, Migrator.userVersion(connection));
            assertEquals("b", text(connection, "SELECT name FROM sqlite_master WHERE name <> 'a'"));
        }
    }

    @Test
    void aNewerOrForeignFileIsRefusedAndLeftAsItWas() throws Exception {
        Path newer = dir.resolve("newer.db");
        Path foreign = dir.resolve("foreign.db");
        try (Connection a = SqliteFile.connect(newer, BUSY); Statement one = a.createStatement();
             Connection b = SqliteFile.connect(foreign, BUSY); Statement other = b.createStatement()) {
            one.execute("PRAGMA application_id = " + MARKED.applicationId());
            one.execute("PRAGMA user_version = 3");
            other.execute("CREATE TABLE jobs (id)");
        }
        for (Path file : List.of(newer, foreign)) {
            StoreException refused = assertThrows(StoreException.class, () -> SqliteFile.open(file, BUSY, Wording.plain(),
                    "open", c -> Migrator.migrate(c, file, MARKED, Migrator.WalSwitch.ONCE, BUSY)));
            assertEquals(file == newer ? "newer.db is newer: 3" : "foreign.db is foreign", refused.getMessage());
            try (Connection connection = SqliteFile.connect(file, BUSY)) {
                assertEquals("delete", text(connection, "PRAGMA journal_mode"), "not switched to WAL");
                assertEquals(file == newer ? 3 : 0, Migrator.userVersion(connection));
                assertEquals(file == newer ? MARKED.applicationId() : 0, Migrator.applicationId(connection));
            }
        }
        TestSchema unmarked = new TestSchema(MARKED.steps(), 0);
        try (Connection connection = SqliteFile.connect(foreign, BUSY)) {
            assertEquals(0, Migrator.check(connection, foreign, unmarked), "an unmarked schema refuses no file as foreign");
        }
    }

    private static String text(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : null;
        }
    }
}
