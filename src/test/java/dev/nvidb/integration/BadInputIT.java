package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.testing.HomeSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The nastiest rows of {@code BadInputTableTest}, through the built {@code bin/nvidb} as real
 * processes, since the launcher, the locale it picks and the JVM's decoding of argv are part
 * of what a user meets: bytes that are not UTF-8 in arguments (in a UTF-8 locale and in none),
 * 2 MiB and non-UTF-8 input on stdin for {@code --script /dev/stdin}, a garbage, damaged or
 * newer {@code queue.db}, and config files too large, not UTF-8 or a FIFO. Each row: its exit
 * code, one {@code nvidb: } line (plus at most a hint), no stack trace, one JSON envelope with
 * {@code --json}, and nothing changed (a logical dump of a readable queue, the bytes of a bad
 * one, no -wal or -shm left behind). Run through {@code /bin/sh -c} with printf, as
 * ProcessBuilder cannot pass bytes that are not text.
 */
class BadInputIT {

    @TempDir
    static Path templateHome;

    private static Path template;

    @TempDir
    Path home;

    /** What {@code $NVIDB_HOME} holds before a row runs. */
    private interface Setup {
        void prepare(Path dir) throws Exception;
    }

    /**
     * @param name     what is wrong
     * @param setup    what {@code $NVIDB_HOME} holds
     * @param healthy  whether queue.db is readable (compared row by row, else byte for byte)
     * @param locale   LC_ALL for the run, or null for none at all (the launcher picks C.UTF-8)
     * @param stdin    bytes on stdin, or null for /dev/null
     * @param command  the arguments, as shell words
     * @param exitCode the expected exit code
     * @param message  a fragment of the {@code nvidb: } line
     */
    private record Row(String name, Setup setup, boolean healthy, String locale, byte[] stdin, String command,
                       int exitCode, String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    @BeforeAll
    static void seedTemplateQueue() throws Exception {
        template = Files.createDirectories(templateHome.resolve(".nvidb"));
        Files.writeString(template.resolve("queue.yml"), "queue:\n  local_node_name: here\n");
        Ran first = sh(templateHome, "C.UTF-8", null, "job submit --no-tick --gpus 0 --name first --note n -- true");
        assertEquals(0, first.code(), first.stderr());
        Ran second = sh(templateHome, "C.UTF-8", null, "job submit --no-tick --gpus 0 --tag t -- sleep 1");
        assertEquals(0, second.code(), second.stderr());
    }

    private static Setup queue() {
        return BadInputIT::copyTemplate;
    }

    private static Setup queueWith(String name, byte[] bytes) {
        return dir -> {
            copyTemplate(dir);
            Files.write(dir.resolve(name), bytes);
        };
    }

    private static void copyTemplate(Path dir) throws IOException {
        try (var files = Files.list(template)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.copy(file, dir.resolve(file.getFileName()));
            }
        }
    }

    private static final byte[] TWO_MIB_SCRIPT = ("echo " + "x".repeat(2 * 1024 * 1024) + "\n").getBytes(StandardCharsets.UTF_8);
    private static final byte[] NOT_UTF8 = {'e', 'c', 'h', 'o', ' ', (byte) 0xc3, '(', '\n'};

    static Stream<Row> table() {
        Setup garbage = dir -> {
            copyTemplate(dir);
            byte[] bytes = new byte[8192];
            Arrays.fill(bytes, (byte) 'x');
            Files.write(dir.resolve("queue.db"), bytes);
        };
        Setup damaged = dir -> {
            copyTemplate(dir);
            byte[] bytes = Files.readAllBytes(dir.resolve("queue.db"));
            int pageSize = ((bytes[16] & 0xff) << 8) | (bytes[17] & 0xff);
            for (int at = pageSize; at < bytes.length; at++) {
                bytes[at] = (byte) (at * 31);
            }
            Files.write(dir.resolve("queue.db"), bytes);
        };
        Setup newer = dir -> {
            copyTemplate(dir);
            try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("queue.db"));
                 Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA user_version = " + (dev.nvidb.store.Migrations.CURRENT_VERSION + 1));
            }
        };
        Setup fifoQueueYml = dir -> {
            copyTemplate(dir);
            Files.delete(dir.resolve("queue.yml"));
            assertEquals(0, new ProcessBuilder("mkfifo", dir.resolve("queue.yml").toString()).start().waitFor());
        };
        return Stream.of(
                new Row("a command word that is not UTF-8", queue(), true, "C.UTF-8", null,
                        "job submit --no-tick --gpus 0 -- echo \"$(printf 'a\\377b')\"", 2, "not valid UTF-8"),
                new Row("a --name that is not UTF-8, no locale at all", queue(), true, null, null,
                        "job submit --no-tick --gpus 0 --name \"$(printf 'n\\377')\" -- true", 2, "not valid UTF-8"),
                new Row("a note that is not UTF-8, --json", queue(), true, "C.UTF-8", null,
                        "job note --json --no-tick 1 \"$(printf '\\303(')\"", 2, "not valid UTF-8"),
                new Row("a 100 kB note", queue(), true, "C.UTF-8", null,
                        "job note --no-tick 1 \"$(head -c 100000 /dev/zero | tr '\\0' n)\"", 2, "a note holds at most 65536"),
                new Row("2 MiB on stdin for --script /dev/stdin", queue(), true, "C.UTF-8", TWO_MIB_SCRIPT,
                        "job submit --no-tick --gpus 0 --script /dev/stdin", 2, "MAX_ARG_STRLEN"),
                new Row("stdin that is not UTF-8 for --script /dev/stdin", queue(), true, "C.UTF-8", NOT_UTF8,
                        "job submit --no-tick --gpus 0 --script /dev/stdin", 2, "is not UTF-8 text"),
                new Row("job ls on a garbage queue.db", garbage, false, "C.UTF-8", null, "job ls --no-tick", 1, "queue.db"),
                new Row("job submit on a garbage queue.db, --json", garbage, false, "C.UTF-8", null,
                        "job submit --json --no-tick --gpus 0 -- true", 1, "queue.db"),
                new Row("job submit on a queue.db with damaged pages", damaged, false, "C.UTF-8", null,
                        "job submit --no-tick --gpus 0 -- true", 1, "queue.db"),
                new Row("job cancel on a newer queue.db", newer, false, "C.UTF-8", null, "job cancel --no-tick 1", 1,
                        "written by a newer nvidb"),
                new Row("queue status on a newer queue.db, --json", newer, false, "C.UTF-8", null,
                        "queue status --json --no-tick", 1, "written by a newer nvidb"),
                new Row("a 2 MiB queue.yml", queueWith("queue.yml", ("#" + "x".repeat(2 * 1024 * 1024)).getBytes(
                        StandardCharsets.UTF_8)), true, "C.UTF-8", null, "job ls --no-tick", 2, "too large for a config file"),
                new Row("queue.yml a FIFO", fifoQueueYml, true, "C.UTF-8", null, "job submit --no-tick --gpus 0 -- true", 2,
                        "not a regular file"),
                new Row("a config.yml byte that is not UTF-8", queueWith("config.yml", new byte[] {'#', (byte) 0xff, '\n'}),
                        true, "C.UTF-8", null, "ls", 2, "config.yml"),
                new Row("import an ssh config that is not UTF-8", queueWith("ssh_config", new byte[] {'H', 'o', 's', 't', ' ',
                        (byte) 0xfe, '\n'}), true, "C.UTF-8", null, "import \"$NVIDB_HOME/ssh_config\"", 2, "not UTF-8 text"),
                new Row("import a 2 MiB host name", queueWith("ssh_config", ("Host " + "h".repeat(2 * 1024 * 1024) + "\n")
                        .getBytes(StandardCharsets.UTF_8)), true, "C.UTF-8", null, "import \"$NVIDB_HOME/ssh_config\"", 2,
                        "refusing to write"),
                // The local node's agent starts before the line is parsed, and must leave nothing behind.
                new Row("submit --wait with a bad --gpus", queue(), true, "C.UTF-8", null,
                        "job submit --wait --gpus two -- true", 2, "Invalid value for option '--gpus'"),
                new Row("clean logs --db-path queue.db", queue(), true, "C.UTF-8", null,
                        "clean logs --db-path \"$NVIDB_HOME/queue.db\" --yes", 2, "which nvidb clean never deletes"));
    }

    /** Waits (up to 15 s) until no local agent runs: one that has ended can change nothing more. */
    private static void awaitNoLocalAgent() throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
        while (new ProcessBuilder("pgrep", "-f", "_nvidb_agent").start().waitFor() == 0) {
            assertTrue(System.nanoTime() < deadline, "a local agent still runs 15 s after its command ended");
            Thread.sleep(50);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void isOneClearLineAndChangesNothing(Row row) throws Exception {
        Path dir = Files.createDirectories(home.resolve(".nvidb"));
        row.setup().prepare(dir);
        Path db = dir.resolve("queue.db");
        HomeSnapshot before = HomeSnapshot.of(home, row.healthy() ? db : null);

        Ran ran = sh(home, row.locale(), row.stdin(), row.command());
        if (row.command().contains("--wait")) {
            awaitNoLocalAgent();   // one begun ahead could still write after its client exited
        }

        assertEquals(row.exitCode(), ran.code(), row + ": " + ran.stderr());
        for (String trace : List.of("Exception", "\tat ", "Caused by")) {
            assertFalse(ran.stderr().contains(trace), row + ": no stack trace: " + ran.stderr());
        }
        List<String> lines = ran.stderr().lines().toList();
        assertTrue(lines.size() == 1 || lines.size() == 2 && lines.get(1).startsWith("  hint: "),
                row + ": one line and at most a hint:\n" + ran.stderr());
        assertTrue(lines.get(0).startsWith("nvidb: ") && lines.get(0).contains(row.message()), row + ": " + ran.stderr());
        if (row.command().contains("--json")) {
            ObjectMapper mapper = new ObjectMapper();
            try (JsonParser parser = mapper.createParser(ran.stdout())) {
                JsonNode document = mapper.readTree(parser);
                assertNull(parser.nextToken(), row + ": exactly one document: " + ran.stdout());
                assertFalse(document.get("ok").asBoolean(), ran.stdout());
                assertTrue(document.at("/error/message").asText().contains(row.message()), ran.stdout());
            }
        } else {
            assertEquals("", ran.stdout(), row + ": stdout carries data only");
        }
        Files.deleteIfExists(home.resolve("stdin"));
        HomeSnapshot after = HomeSnapshot.of(home, row.healthy() ? db : null);
        assertEquals("", before.differences(after), row + ": nothing changed");
        assertEquals(before, after, row + ": nothing changed");
    }

    private record Ran(int code, String stdout, String stderr) {
    }

    /**
     * Runs {@code bin/nvidb COMMAND} through {@code sh -c} in {@code home} with LC_ALL
     * {@code locale} (null: LANG and every LC_ unset), {@code stdin} on its input.
     */
    private static Ran sh(Path home, String locale, byte[] stdin, String command) throws Exception {
        Path project = Path.of(System.getProperty("nvidb.project.dir", "."));
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", "exec \"$NVIDB\" " + command);
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> name.equals("LANG") || name.startsWith("LC_"));
        env.putAll(Launcher.localEnvironment(home));
        env.put("NVIDB_HOME", home.resolve(".nvidb").toString());
        env.put("NVIDB", project.resolve("bin/nvidb").toString());
        env.put("NVIDB_NO_BUILD", "1");
        env.put("NVIDB_BUILD_DIR", System.getProperty("nvidb.build.dir", project.resolve("target").toString()));
        if (locale != null) {
            env.put("LC_ALL", locale);
        }
        if (stdin != null) {
            Path input = home.resolve("stdin");
            Files.write(input, stdin);
            builder.redirectInput(input.toFile());
        } else {
            builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        }
        Process process = builder.start();
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("bin/nvidb " + command + " did not finish in 120 s");
        }
        return new Ran(process.exitValue(), new String(out.join(), StandardCharsets.UTF_8),
                new String(err.join(), StandardCharsets.UTF_8));
    }

    private static byte[] readAll(java.io.InputStream stream) {
        try (stream) {
            return stream.readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }
}
