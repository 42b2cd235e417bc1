package dev.nvidb.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseTest {

    @TempDir
    Path dir;

    @Test
    void migratesAnEmptyFileToTheCurrentSchemaInWalMode() throws Exception {
        Path file = dir.resolve("queue.db");
        try (Database database = Database.open(file)) {
            assertEquals(Migrations.CURRENT_VERSION, database.read("read", Migrations::userVersion));
            List<String> tables = database.read("read", conn -> {
                List<String> names = new ArrayList<>();
                try (Statement statement = conn.createStatement();
                     ResultSet rows = statement.executeQuery(
                             "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
                    while (rows.next()) {
                        names.add(rows.getString(1));
                    }
                }
                return names;
            });
            assertEquals(List.of("alert_deliveries", "alerts", "cancel_requests", "events", "job_dependencies", "job_groups",
                    "jobs", "lease", "meta", "nodes", "notify_channels", "op_ids", "pending_reaps"), tables);
            assertEquals("wal", pragma(database, "journal_mode"));
            assertEquals("1", pragma(database, "foreign_keys"));
            assertEquals("1", pragma(database, "synchronous"));
            assertEquals("10000", pragma(database, "busy_timeout"));
        }
    }

    @Test
    void createsTheFileOwnerOnlyInAnOwnerOnlyFolder() throws Exception {
        Path file = dir.resolve("home/.nvidb/queue.db");
        try (Database database = Database.open(file)) {
            database.write("touch", conn -> new MetaStore(database).getInstant(conn, "x"));
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent().getParent())));
    }

    @Test
    void refusesADatabaseFromANewerNvidbAndLeavesItAlone() throws Exception {
        Path file = dir.resolve("queue.db");
        try (var connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("CREATE TABLE future (x)");
            statement.executeUpdate("PRAGMA user_version = " + (Migrations.CURRENT_VERSION + 1));
        }
        StoreException error = assertThrows(StoreException.class, () -> Database.open(file));
        assertEquals("queue.db was written by a newer nvidb (schema " + (Migrations.CURRENT_VERSION + 1)
                + ", this build knows " + Migrations.CURRENT_VERSION + "); upgrade nvidb", error.getMessage());
        try (var connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("PRAGMA user_version")) {
            assertEquals(Migrations.CURRENT_VERSION + 1, rows.getInt(1));
        }
    }

    @Test
    void aFailedTransactionLeavesNothingBehind() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            MetaStore meta = new MetaStore(database);
            assertThrows(IllegalStateException.class, () -> database.write("save", conn -> {
                meta.put(conn, "k", "v");
                throw new IllegalStateException("boom");
            }));
            assertTrue(meta.get("k").isEmpty());
        }
    }

    @Test
    void nestedTransactionsJoinTheOuterOne() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            MetaStore meta = new MetaStore(database);
            assertThrows(IllegalStateException.class, () -> database.write("outer", conn -> {
                meta.put("inner", "written through the convenience overload");
                assertEquals("written through the convenience overload", meta.get("inner").orElseThrow());
                throw new IllegalStateException("roll both back");
            }));
            assertFalse(meta.get("inner").isPresent());
            assertThrows(IllegalStateException.class, () -> database.read("outer", conn -> {
                meta.put("k", "v");
                return null;
            }));
        }
    }

    @Test
    void aLockHeldTooLongBecomesOneSentence() throws Exception {
        Path file = dir.resolve("queue.db");
        try (Database holder = Database.open(file);
             Database impatient = Database.open(file, Duration.ofMillis(50))) {
            CountDownLatch locked = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            ExecutorService executor = Executors.newSingleThreadExecutor();
            Future<?> holding = executor.submit(() -> holder.write("hold", conn -> {
                locked.countDown();
                awaitQuietly(done);
                return null;
            }));
            locked.await();
            StoreException error = assertThrows(StoreException.class,
                    () -> new JobStore(impatient).insert(Specs.spec("train"), 0, null, Specs.T0));
            done.countDown();
            holding.get();
            executor.shutdown();
            assertEquals("cannot submit job train: database is locked", error.getMessage());
            assertTrue(error.hint().isPresent());
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String pragma(Database database, String name) {
        return database.read("read", conn -> {
            try (Statement statement = conn.createStatement();
                 ResultSet rows = statement.executeQuery("PRAGMA " + name)) {
                return rows.getString(1);
            }
        });
    }
}
