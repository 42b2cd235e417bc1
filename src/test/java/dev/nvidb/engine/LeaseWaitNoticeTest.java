package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.cli.CliRunner;
import dev.nvidb.store.Database;
import dev.nvidb.store.LeaseStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7 item 8 at the command line: a command that waits for another client's tick says so in
 * one stderr line, and its stdout is still exactly one JSON document.
 */
@org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
class LeaseWaitNoticeTest {

    @TempDir
    Path home;

    @Test
    void aWaitingCommandSaysWhoseTickItWaitsForOnStderrOnly() throws Exception {
        Path nvidb = home.resolve(".nvidb");
        Files.createDirectories(nvidb);
        Files.writeString(nvidb.resolve("queue.yml"), "queue:\n  local_node_name: here\n  tick_min_interval: 0\n");
        Map<String, String> env = Map.of("HOME", home.toString(), "NVIDB_HOME", nvidb.toString());
        assertEquals(0, CliRunner.run(env, "queue", "ignore", "here").exitCode());
        try (Database database = Database.open(nvidb.resolve("queue.db"))) {
            String other = new LeaseOwner("beef", "elsewhere", "boot-of-elsewhere", "pid:[1]", 4242, 99L, 2_000,
                    "nvidb queue tick").encode();
            assertTrue(new LeaseStore(database).acquire(other, Instant.now(), Duration.ofSeconds(2)));
        }
        CliRunner.Result list = CliRunner.run(env, "job", "ls", "--json");
        assertEquals(0, list.exitCode(), list::stderr);
        JsonNode document = new ObjectMapper().readTree(list.stdout());
        assertTrue(document.get("ok").asBoolean(), list::stdout);
        String[] lines = list.stderr().strip().split("\n");
        assertEquals(1, lines.length, list::stderr);
        assertTrue(lines[0].startsWith("nvidb: waiting for the tick of pid 4242 on elsewhere (nvidb queue tick)"),
                list::stderr);
        try (Database database = Database.open(nvidb.resolve("queue.db"))) {
            assertFalse(new LeaseStore(database).current().held(Instant.now()), "then it ticked and let go");
        }
    }
}
