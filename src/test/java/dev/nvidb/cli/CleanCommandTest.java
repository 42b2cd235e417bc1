package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.JobSpec;
import dev.nvidb.remote.TerminalControl;
import dev.nvidb.store.Database;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.JobTransitions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nvidb clean}: servers leave config.yml with every other byte kept, the GPU log goes
 * with its -wal and -shm, queue.db always stays; nothing changes without a yes (typed, or
 * {@code --yes}), for bad input, or without a terminal to ask on.
 */
class CleanCommandTest {

    private static final String CONFIG = """
            # my lab
            basic:
              remote: true   # always
            servers:
              # the big box
              - hostname: gpu-a.lab
                nickname: gpu-a
              - hostname: gpu-b.lab   # the small one
                nickname: gpu-b
                gpus: [0]
            # keep this
            view:
              mode: unified
            """;
    private static final String CONFIG_WITHOUT_B = """
            # my lab
            basic:
              remote: true   # always
            servers:
              # the big box
              - hostname: gpu-a.lab
                nickname: gpu-a
            # keep this
            view:
              mode: unified
            """;
    private static final byte[] SQLITE = "SQLite format 3\0rest of the page".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path home;

    private Path nvidb;
    private Map<String, String> env;

    @BeforeEach
    void aHomeWithServersALogAndAQueue() throws IOException {
        nvidb = home.resolve(".nvidb");
        Files.createDirectories(nvidb);
        env = Map.of("HOME", home.toString(), "NVIDB_HOME", nvidb.toString());
        Files.writeString(nvidb.resolve("config.yml"), CONFIG);
        Files.write(nvidb.resolve("gpu_log.db"), SQLITE);
        Files.writeString(nvidb.resolve("gpu_log.db-wal"), "wal");
        Files.writeString(nvidb.resolve("gpu_log.db-shm"), "shm");
        Files.write(nvidb.resolve("queue.db"), SQLITE);
    }

    /** Runs on a terminal whose keyboard types {@code input}. */
    private CliRun typed(String input, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Streams streams = new Streams(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                OutputStream.nullOutputStream(), OutputStream.nullOutputStream(), TerminalControl.NONE);
        int code = Cli.run(new Context(new HashMap<>(env), new PrintWriter(out, true), new PrintWriter(err, true), true,
                streams), args);
        return new CliRun(code, out.toString(), err.toString());
    }

    private String config() throws IOException {
        return Files.readString(nvidb.resolve("config.yml"));
    }

    private boolean logLeft() {
        return List.of("gpu_log.db", "gpu_log.db-wal", "gpu_log.db-shm").stream()
                .anyMatch(name -> Files.exists(nvidb.resolve(name)));
    }

    private boolean logWhole() {
        return List.of("gpu_log.db", "gpu_log.db-wal", "gpu_log.db-shm").stream()
                .allMatch(name -> Files.exists(nvidb.resolve(name)));
    }

    private void assertNothingChanged() throws IOException {
        assertEquals(CONFIG, config());
        assertTrue(logWhole(), "the GPU log is whole");
        assertTrue(Files.exists(nvidb.resolve("queue.db")));
    }

    @Test
    void removingAServerKeepsEveryOtherByteOfACommentedConfig() throws IOException {
        CliRun run = CliRun.run(env, "clean", "servers", "gpu-b", "--yes");
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(CONFIG_WITHOUT_B, config());
        assertTrue(run.stderr().contains("removed gpu-b from ~/.nvidb/config.yml"), run.stderr());
        assertEquals("", run.stdout());
        assertTrue(logWhole(), "the log is not touched");
    }

    @Test
    void aLogAnotherProcessHasOpenIsNotDeleted() throws Exception {
        Process holder = new ProcessBuilder("bash", "-c", "exec 3<\"$0\"; echo open; exec sleep 60",
                nvidb.resolve("gpu_log.db").toString()).start();
        try {
            assertEquals("open", new String(holder.getInputStream().readNBytes(4)));
            CliRun run = CliRun.run(env, "clean", "logs", "--yes");
            assertEquals(2, run.exitCode(), run.stderr());
            String line = run.stderr().lines().findFirst().orElseThrow();
            assertTrue(line.startsWith("nvidb: ~/.nvidb/gpu_log.db is open in process " + holder.pid() + " (")
                    && line.endsWith("sleep 60); nothing deleted"), line);
            assertTrue(logWhole());
        } finally {
            holder.destroyForcibly().waitFor();
        }
        assertEquals(0, CliRun.run(env, "clean", "logs", "--yes").exitCode(), "deleted once nothing holds it");
        assertFalse(logLeft());
    }

    @Test
    void cleanLogsRemovesTheDatabaseWithItsWalAndShm() throws IOException {
        CliRun run = CliRun.run(env, "clean", "logs", "--yes");
        assertEquals(0, run.exitCode(), run.stderr());
        assertFalse(logLeft());
        assertTrue(run.stderr().contains("deleted ~/.nvidb/gpu_log.db, gpu_log.db-wal, gpu_log.db-shm ("), run.stderr());
        assertEquals(CONFIG, config());
        assertTrue(Files.exists(nvidb.resolve("queue.db")));
        CliRun again = CliRun.run(env, "clean", "logs", "--yes");
        assertEquals(0, again.exitCode());
        assertTrue(again.stderr().startsWith("nothing to delete: no GPU log at ~/.nvidb/gpu_log.db"), again.stderr());
    }

    @Test
    void cleanLogsTakesALogElsewhere() throws IOException {
        Path elsewhere = home.resolve("scratch/history.db");
        Files.createDirectories(elsewhere.getParent());
        Files.write(elsewhere, SQLITE);
        Files.writeString(home.resolve("scratch/history.db-wal"), "wal");
        CliRun run = CliRun.run(env, "clean", "logs", "--db-path", elsewhere.toString(), "--yes");
        assertEquals(0, run.exitCode(), run.stderr());
        assertFalse(Files.exists(elsewhere));
        assertFalse(Files.exists(home.resolve("scratch/history.db-wal")));
        assertTrue(logWhole(), "the default log stays");
    }

    @Test
    void cleanLogsRefusesTheQueueDatabaseAndFilesThatAreNotSqlite() throws IOException {
        CliRun queue = CliRun.run(env, "clean", "logs", "--db-path", nvidb.resolve("queue.db").toString(), "--yes");
        assertEquals(2, queue.exitCode());
        assertTrue(queue.stderr().startsWith("nvidb: ~/.nvidb/queue.db is the queue's database"), queue.stderr());
        CliRun text = CliRun.run(env, "clean", "logs", "--db-path", nvidb.resolve("config.yml").toString(), "--yes");
        assertEquals(2, text.exitCode());
        assertTrue(text.stderr().startsWith("nvidb: ~/.nvidb/config.yml is not a SQLite database; nothing deleted"),
                text.stderr());
        assertFalse(text.stderr().contains("\tat "), "no stack trace");
        assertNothingChanged();
    }

    @Test
    void cleanAllWithYesRemovesServersAndLogButKeepsQueueDb() throws IOException {
        CliRun run = CliRun.run(env, "clean", "all", "--yes");
        assertEquals(0, run.exitCode(), run.stderr());
        assertFalse(logLeft());
        assertTrue(Files.exists(nvidb.resolve("queue.db")), "queue.db belongs to the queue");
        assertEquals("""
                # my lab
                basic:
                  remote: true   # always
                servers:
                  # the big box
                # keep this
                view:
                  mode: unified
                """, config(), "only the items' lines go; a comment above one stays");
        assertTrue(run.stderr().contains("note: the queue has no servers left and now runs jobs on this machine"),
                run.stderr());
        CliRun again = CliRun.run(env, "clean", "all", "--yes");
        assertEquals(0, again.exitCode());
        assertTrue(again.stderr().startsWith("nothing to delete"), again.stderr());
    }

    @Test
    void withoutATerminalNothingChangesUnlessYes() throws IOException {
        for (String[] args : List.of(new String[] {"clean"}, new String[] {"clean", "servers", "gpu-a"},
                new String[] {"clean", "logs"}, new String[] {"clean", "all"})) {
            CliRun run = CliRun.run(env, args);
            String line = String.join(" ", args);
            assertEquals(2, run.exitCode(), line);
            assertTrue(run.stderr().startsWith("nvidb: "), line + ": " + run.stderr());
            assertTrue(run.stderr().contains("--yes"), line + ": " + run.stderr());
            assertEquals(1, run.stderr().lines().count(), line + ": one line: " + run.stderr());
        }
        assertNothingChanged();
    }

    @Test
    void anUnknownServerIsNamedWithTheKnownOnesAndNothingChanges() throws IOException {
        CliRun run = CliRun.run(env, "clean", "servers", "gpu-a", "gpu-z", "--yes");
        assertEquals(2, run.exitCode());
        assertEquals("nvidb: no server named 'gpu-z' in ~/.nvidb/config.yml or ~/.nvidb/queue.yml;"
                + " known: gpu-a, gpu-b\n", run.stderr());
        assertNothingChanged();
    }

    @Test
    void aServerOfTheQueueIsPointedOutBeforeItGoes() throws IOException {
        CliRun run = typed("n\n", "clean", "servers", "gpu-a");
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stderr().contains("note: gpu-a is a queue node: once removed, no new jobs are placed there"),
                run.stderr());
        assertTrue(run.stderr().contains("Remove gpu-a from ~/.nvidb/config.yml? [y/N] "), run.stderr());
        assertTrue(run.stderr().contains("nothing removed"), run.stderr());
        assertNothingChanged();
    }

    @Test
    void jobsRunningOnAServerAreNamedBeforeItGoes() throws IOException {
        Files.delete(nvidb.resolve("queue.db"));
        try (Database database = Database.open(nvidb.resolve("queue.db"))) {
            long id = new JobStore(database).insert(new JobSpec("train", "python train.py", 1, 1024, null, null,
                    Map.of(), List.of(), null, 0, List.of(), "ann@lab"), 0, null, Instant.now());
            assertTrue(new JobTransitions(database).place(id,
                    new Assignment("gpu-b", List.of(0), List.of("GPU-aaaa"), 1, "token-1"), "/tmp/job", Instant.now()));
        }
        CliRun run = typed("n\n", "clean", "servers", "gpu-b");
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stderr().contains("warning: gpu-b is a queue node with 1 running job (1): once removed, the queue"
                + " no longer watches them; cancel them first with 'nvidb job cancel 1'"), run.stderr());
        assertEquals(CONFIG, config());
    }

    @Test
    void theMenuRemovesAServerByNumberAfterAYes() throws IOException {
        CliRun run = typed("1\n2\ny\n3\n", "clean");
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(CONFIG_WITHOUT_B, config());
        assertTrue(run.stderr().contains("  1) servers: gpu-a, gpu-b"), run.stderr());
        assertTrue(run.stderr().contains("  2) gpu-b (gpu-b.lab)  [config.yml]"), run.stderr());
        assertTrue(run.stderr().contains("  1) servers: gpu-a\n"), "the menu shows what is left: " + run.stderr());
        assertTrue(logWhole());
    }

    @Test
    void theMenuDeletesTheLogAfterAYes() throws IOException {
        CliRun run = typed("2\ny\n", "clean");
        assertEquals(0, run.exitCode(), run.stderr());
        assertFalse(logLeft());
        assertEquals(CONFIG, config());
        assertTrue(run.stderr().contains("  2) GPU log: ~/.nvidb/gpu_log.db, gpu_log.db-wal, gpu_log.db-shm ("),
                run.stderr());
    }

    @Test
    void theMenuChangesNothingOnNoOnWrongInputOrAtTheEndOfInput() throws IOException {
        for (String input : List.of("1\n1\nn\n3\n", "1\n9 gpu-q\n\n2\n\nq\n", "4\n", "", "1\ngpu-a\n")) {
            CliRun run = typed(input, "clean");
            assertEquals(0, run.exitCode(), input + ": " + run.stderr());
            assertNothingChanged();
        }
        CliRun wrong = typed("1\n9\n\n3\n", "clean");
        assertTrue(wrong.stderr().contains("'9' is not a number from 1 to 2 or a server's name"), wrong.stderr());
    }

    @Test
    void cleanAllListsWhatGoesAndWhatStaysAndAsksTwice() throws IOException {
        CliRun refused = typed("y\ndelet\n", "clean", "all");
        assertEquals(0, refused.exitCode(), refused.stderr());
        assertTrue(refused.stderr().contains("""
                nvidb clean all deletes:
                  the servers in ~/.nvidb/config.yml: gpu-a, gpu-b (its other settings stay)
                  the GPU log ~/.nvidb/gpu_log.db, gpu_log.db-wal, gpu_log.db-shm ("""), refused.stderr());
        assertTrue(refused.stderr().contains("and keeps:\n  the queue's database ~/.nvidb/queue.db (jobs and their"
                + " history; 'nvidb queue gc' trims it)"), refused.stderr());
        assertTrue(refused.stderr().contains("Delete all of this? [y/N] Type 'delete' to confirm: "), refused.stderr());
        assertTrue(refused.stderr().endsWith("nothing deleted\n"), refused.stderr());
        assertNothingChanged();

        CliRun no = typed("n\n", "clean", "all");
        assertEquals(0, no.exitCode());
        assertFalse(no.stderr().contains("Type 'delete'"), "a no ends it: " + no.stderr());
        assertNothingChanged();

        CliRun yes = typed("y\ndelete\n", "clean", "all");
        assertEquals(0, yes.exitCode(), yes.stderr());
        assertFalse(logLeft());
        assertFalse(config().contains("gpu-a"), config());
        assertTrue(Files.exists(nvidb.resolve("queue.db")));
    }

    @Test
    void cleanAllKeepsQueueYmlAndItsServers() throws IOException {
        String queue = "servers:\n  - hostname: gpu-b.lab\n    nickname: gpu-b\n";
        Files.writeString(nvidb.resolve("queue.yml"), queue);
        CliRun run = typed("y\ndelete\n", "clean", "all");
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stderr().contains("  ~/.nvidb/queue.yml and its servers: gpu-b\n"), run.stderr());
        assertFalse(run.stderr().contains("queue node"), "gpu-b stays a queue node: " + run.stderr());
        assertEquals(queue, Files.readString(nvidb.resolve("queue.yml")));
    }
}
