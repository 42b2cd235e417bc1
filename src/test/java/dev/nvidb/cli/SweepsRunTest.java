package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sweeps that run, end to end on this machine's node: a broken group stops after 3 quick
 * failures (and runs again when released), an array never runs more than its cap, and a
 * re-run of a keyed sweep submits only the cells that failed.
 */
class SweepsRunTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void queue() throws Exception {
        Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(home.resolve(".nvidb/queue.yml"),
                "queue:\n  local_node_name: here\n  tick_min_interval: 0\n  max_cpu_jobs_per_node: 8\n");
        env = Map.of("HOME", home.toString(), "NVIDB_HOME", home.resolve(".nvidb").toString(),
                "PATH", "/usr/local/bin:/usr/bin:/bin");
    }

    private JsonNode json(String... args) throws Exception {
        CliRun run = CliRun.run(env, args);
        assertEquals(0, run.exitCode(), run.stderr());
        return JSON.readTree(run.stdout());
    }

    private JsonNode group(String name) throws Exception {
        for (JsonNode group : json("queue", "groups", "--no-tick", "--json").get("groups")) {
            if (group.get("name").asText().equals(name)) {
                return group;
            }
        }
        throw new AssertionError("no group " + name);
    }

    /** Ticks until {@code done} holds for the group, checking {@code always} after every tick. */
    private JsonNode tickUntil(String name, Predicate<JsonNode> done, Predicate<JsonNode> always) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            CliRun tick = CliRun.run(env, "queue", "tick");
            assertEquals(0, tick.exitCode(), tick.stderr());
            JsonNode group = group(name);
            assertTrue(always.test(group), group.toString());
            if (done.test(group)) {
                return group;
            }
        }
        fail("group " + name + " never got there: " + group(name));
        return null;
    }

    @Test
    void aBrokenGroupIsHeldAfterThreeQuickFailuresWithAnAlertAndRunsAgainWhenReleased() throws Exception {
        json("job", "submit", "--json", "--no-tick", "--gpus", "0", "--array", "0-9%1", "--name", "broken", "--",
                "exit 3");
        JsonNode held = tickUntil("broken", group -> group.get("held").asBoolean(), group -> true);
        // Held in the transaction of the third failure: no fourth cell ran.
        for (int i = 0; i < 3; i++) {
            CliRun.run(env, "queue", "tick");
        }
        held = group("broken");
        assertEquals(3, held.get("counts").get("failed").asInt(), held.toString());
        assertEquals(7, held.get("counts").get("pending").asInt(), held.toString());
        assertTrue(held.get("held_reason").asText().contains("nvidb queue release-group broken"), held.toString());
        JsonNode pending = json("job", "ls", "--no-tick", "--json", "--group", "broken", "--state", "pending")
                .get("jobs").get(0);
        assertTrue(pending.get("pending_reason").asText().startsWith("held: group broken held after 3 quick failures"),
                pending.toString());
        CliRun open = CliRun.run(env, "queue", "alerts", "--no-tick", "--json");
        assertEquals(1, open.exitCode(), "alerts are open: " + open.stderr());
        JsonNode alerts = JSON.readTree(open.stdout()).get("alerts");
        boolean raised = false;
        for (JsonNode alert : alerts) {
            raised |= alert.get("kind").asText().equals("group_held");
        }
        assertTrue(raised, alerts.toString());

        assertTrue(json("queue", "release-group", "--no-tick", "--json", "broken").get("released").asBoolean());
        JsonNode again = tickUntil("broken", group -> group.get("held").asBoolean(), group -> true);
        assertEquals(6, again.get("counts").get("failed").asInt(), "three more, then held again: " + again);
    }

    @Test
    void anArrayNeverRunsMoreThanItsCap() throws Exception {
        json("job", "submit", "--json", "--no-tick", "--gpus", "0", "--array", "0-5%2", "--name", "capped", "--",
                "sleep 0.3");
        JsonNode done = tickUntil("capped", group -> group.get("counts").get("completed").asInt() == 6,
                group -> group.get("counts").get("running").asInt() <= 2);
        assertEquals(6, done.get("done").asInt());
    }

    @Test
    void aKeyedSweepReRunSubmitsOnlyItsFailedCells() throws Exception {
        String[] sweep = {"job", "submit", "--json", "--no-tick", "--gpus", "0", "--array", "0-3", "--key", "s1",
                "--group", "s1", "--", "test {} -ne 2"};
        assertEquals(4, json(sweep).get("created").asInt());
        tickUntil("s1", group -> group.get("finished").asInt() == 4, group -> true);
        assertEquals(1, group("s1").get("counts").get("failed").asInt());
        JsonNode rerun = json(sweep);
        assertEquals(1, rerun.get("created").asInt(), rerun.toString());
        assertEquals(5, group("s1").get("total").asInt());
    }
}
