package dev.nvidb.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

/**
 * One row of the bad-input table: what the home holds before the run, the command line
 * ({@code {home}} stands for the user's home, {@code $NVIDB_HOME} is {@code {home}/.nvidb}),
 * the exit code and a fragment of the one message.
 *
 * @param name     what is wrong, as the test report names the row
 * @param setup    what {@code $NVIDB_HOME} holds
 * @param args     the command line
 * @param exitCode the expected exit code (never 0)
 * @param message  a fragment of the {@code nvidb: } line
 */
record BadInputCase(String name, Setup setup, List<String> args, int exitCode, String message) {

    @Override
    public String toString() {
        return name;
    }

    /** The command line with {@code {home}} replaced. */
    String[] argsIn(Path home) {
        return args.stream().map(arg -> arg.replace("{home}", home.toString())).toArray(String[]::new);
    }

    /** Writes one state of {@code $NVIDB_HOME}. */
    interface Setup {
        void prepare(Path dir, Path template) throws Exception;

        /** Whether queue.db is a database this build reads, so it is compared row by row. */
        default boolean healthyDatabase() {
            return true;
        }
    }

    /** A state of {@code $NVIDB_HOME} whose queue.db is compared byte for byte. */
    interface RawSetup extends Setup {
        @Override
        default boolean healthyDatabase() {
            return false;
        }
    }

    /** Nothing at all: the directory exists and is empty. */
    static Setup empty() {
        return (dir, template) -> { };
    }

    /** The template queue: queue.yml (node "here") and a queue.db with a few jobs. */
    static Setup queue() {
        return BadInputCase::copyTemplate;
    }

    /** The template queue and one more file, {@code name}, holding {@code bytes}. */
    static Setup queueWith(String name, byte[] bytes) {
        return (dir, template) -> {
            copyTemplate(dir, template);
            Path file = dir.resolve(name);
            Files.createDirectories(file.getParent());
            Files.write(file, bytes);
        };
    }

    static Setup queueWith(String name, String text) {
        return queueWith(name, text.getBytes(StandardCharsets.UTF_8));
    }

    /** The template queue with {@code name} a FIFO nobody writes to. */
    static Setup queueWithFifo(String name) {
        return (dir, template) -> {
            copyTemplate(dir, template);
            Files.deleteIfExists(dir.resolve(name));
            Process mkfifo = new ProcessBuilder("mkfifo", dir.resolve(name).toString()).start();
            if (mkfifo.waitFor() != 0) {
                throw new IOException("mkfifo failed");
            }
        };
    }

    /** queue.yml and a queue.db of 8 KiB of text: not SQLite at all. */
    static Setup garbageDatabase() {
        return (RawSetup) (dir, template) -> {
            copyTemplate(dir, template);
            byte[] garbage = new byte[8192];
            Arrays.fill(garbage, (byte) 'x');
            Files.write(dir.resolve("queue.db"), garbage);
        };
    }

    /** queue.yml, and a directory where queue.db should be. */
    static Setup databaseIsADirectory() {
        return (RawSetup) (dir, template) -> {
            copyTemplate(dir, template);
            Files.delete(dir.resolve("queue.db"));
            Files.createDirectory(dir.resolve("queue.db"));
        };
    }

    /** The template queue.db with its header intact and every page after the first overwritten. */
    static Setup damagedPages() {
        return (RawSetup) (dir, template) -> {
            copyTemplate(dir, template);
            Path db = dir.resolve("queue.db");
            byte[] bytes = Files.readAllBytes(db);
            int pageSize = ((bytes[16] & 0xff) << 8) | (bytes[17] & 0xff);
            for (int at = pageSize; at < bytes.length; at++) {
                bytes[at] = (byte) (at * 31);
            }
            Files.write(db, bytes);
        };
    }

    /** The template queue.db written by a newer nvidb: {@code user_version} one above this build's. */
    static Setup newerDatabase() {
        return (RawSetup) (dir, template) -> {
            copyTemplate(dir, template);
            try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("queue.db"));
                 Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA user_version = " + (dev.nvidb.store.Migrations.CURRENT_VERSION + 1));
            }
        };
    }

    private static void copyTemplate(Path dir, Path template) throws IOException {
        try (var files = Files.list(template)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.copy(file, dir.resolve(file.getFileName()));
            }
        }
    }
}
