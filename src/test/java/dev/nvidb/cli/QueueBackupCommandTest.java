package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code queue backup}, {@code queue gc} and what {@code queue status} says about them, as a user runs them. */
class QueueBackupCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path home;
    Map<String, String> env;

    @BeforeEach
    void queue() throws Exception {
        env = CliRun.localQueue(home);
    }

    @Test
    void backupWritesAnOwnerOnlyCopyInTheBackupsFolderAndStatusShowsIt() throws Exception {
        CliRun before = CliRun.run(env, "--json", "queue", "status", "--no-tick");
        assertEquals(0, before.exitCode(), before.stderr());
        JsonNode status = JSON.readTree(before.stdout());
        assertTrue(status.get("last_backup_at").isNull(), before.stdout());
        assertTrue(status.get("database_bytes").asLong() > 0, before.stdout());

        CliRun backup = CliRun.run(env, "queue", "backup", "--keep", "3");
        assertEquals(0, backup.exitCode(), backup.stderr());
        Path file = Path.of(backup.stdout().strip());
        assertEquals(home.resolve(".nvidb/backups"), file.getParent());
        assertTrue(file.getFileName().toString().matches("queue-\\d{8}T\\d{6}Z\\.db"), file.toString());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertTrue(backup.stderr().contains("checked"), backup.stderr());

        JsonNode after = JSON.readTree(CliRun.run(env, "--json", "queue", "status", "--no-tick").stdout());
        assertTrue(after.get("last_backup_at").isNumber());
        CliRun text = CliRun.run(env, "queue", "status", "--no-tick");
        assertTrue(text.stdout().contains("last backup "), text.stdout());
    }

    @Test
    void anExistingPathIsOneClearLineExitTwoAndUntouched() throws Exception {
        Path target = home.resolve("copy.db");
        Files.writeString(target, "precious");
        CliRun run = CliRun.run(env, "queue", "backup", target.toString());
        assertEquals(2, run.exitCode());
        assertEquals("", run.stdout());
        assertTrue(run.stderr().contains("refusing to overwrite " + target + ": it exists"), run.stderr());
        assertTrue(run.stderr().lines().count() <= 2, "a line and its hint: " + run.stderr());
        assertEquals("precious", Files.readString(target));
        try (Stream<Path> left = Files.list(home)) {
            assertEquals(List.of(".nvidb", "copy.db"), left.map(path -> path.getFileName().toString()).sorted().toList());
        }

        CliRun json = CliRun.run(env, "--json", "queue", "backup", target.toString());
        assertEquals(2, json.exitCode());
        assertEquals(false, JSON.readTree(json.stdout()).get("ok").asBoolean());
    }

    @Test
    void aBadPathOrNoQueueChangesNothing() throws Exception {
        CliRun noFolder = CliRun.run(env, "queue", "backup", home.resolve("missing/copy.db").toString());
        assertEquals(2, noFolder.exitCode());
        assertTrue(noFolder.stderr().contains("folder " + home.resolve("missing") + " does not exist"), noFolder.stderr());
        CliRun noQueue = CliRun.run(env, "queue", "backup");
        assertEquals(2, noQueue.exitCode());
        assertTrue(noQueue.stderr().startsWith("nvidb: no queue database at " + home.resolve(".nvidb/queue.db")),
                noQueue.stderr());
        try (Stream<Path> left = Files.list(home.resolve(".nvidb"))) {
            assertEquals(List.of("queue.yml"), left.map(path -> path.getFileName().toString()).sorted().toList(),
                    "no database, no backups folder was made");
        }
    }

    @Test
    void backupToAnExplicitPathAndGcDryRunAnswerInJson() throws Exception {
        Path target = home.resolve("copy.db");
        assertEquals(0, CliRun.run(env, "job", "submit", "--no-tick", "--", "true").exitCode()); // a queue to copy
        CliRun backup = CliRun.run(env, "--json", "queue", "backup", target.toString());
        assertEquals(0, backup.exitCode(), backup.stderr());
        JsonNode document = JSON.readTree(backup.stdout());
        assertEquals(target.toString(), document.get("file").asText());
        assertTrue(document.get("bytes").asLong() > 0);
        assertTrue(Files.isRegularFile(target));

        CliRun gc = CliRun.run(env, "--json", "queue", "gc", "--dry-run");
        assertEquals(0, gc.exitCode(), gc.stderr());
        JsonNode collected = JSON.readTree(gc.stdout());
        assertTrue(collected.get("dry_run").asBoolean());
        assertEquals(0, collected.get("jobs").size());
    }

    @Test
    void aDaemonPassTakesTheDueBackupAndSaysSo() throws Exception {
        Files.writeString(home.resolve(".nvidb/queue.yml"),
                "queue:\n  local_node_name: here\n  backup:\n    enabled: true\n    directory: ~/daemon-backups\n");
        CliRun pass = CliRun.run(env, "--json", "queue", "daemon", "--once");
        assertEquals(0, pass.exitCode(), pass.stdout() + pass.stderr());
        JsonNode maintenance = JSON.readTree(pass.stdout()).get("maintenance");
        Path file = Path.of(maintenance.get("backup").get("file").asText());
        assertEquals(home.resolve("daemon-backups"), file.getParent(), "~ is expanded");
        assertTrue(Files.isRegularFile(file));
        assertTrue(maintenance.get("backup_error").isNull());

        CliRun text = CliRun.run(env, "queue", "daemon", "--once");
        assertEquals(0, text.exitCode(), text.stderr());
        assertTrue(!text.stdout().contains(" backup:"), "not due again: " + text.stdout());
    }

    @Test
    void badRetentionIsOneLineWithFileAndLine() throws Exception {
        Files.writeString(home.resolve(".nvidb/queue.yml"),
                "queue:\n  local_node_name: here\n  retention:\n    events_days: -1\n");
        CliRun run = CliRun.run(env, "queue", "gc");
        assertEquals(2, run.exitCode());
        assertTrue(run.stderr().contains("queue.yml:4") && run.stderr().contains("events_days"), run.stderr());

        Files.writeString(home.resolve(".nvidb/queue.yml"),
                "queue:\n  local_node_name: here\n  retention:\n    job_dir_days: 3\n");
        CliRun typo = CliRun.run(env, "queue", "gc");
        assertEquals(2, typo.exitCode());
        assertTrue(typo.stderr().contains("queue.yml:4") && typo.stderr().contains("job_dirs_days"), typo.stderr());
    }
}
