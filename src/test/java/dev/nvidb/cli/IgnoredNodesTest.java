package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An ignored node is not contacted, and a job that has nowhere to go says why. */
class IgnoredNodesTest {

    @TempDir
    Path home;

    @Test
    void jobWaitsSayingEveryNodeIsIgnored() throws Exception {
        Map<String, String> env = Map.of("HOME", home.toString(), "NVIDB_HOME", home.resolve(".nvidb").toString());
        Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(home.resolve(".nvidb/queue.yml"), "queue:\n  local_node_name: here\n  tick_min_interval: 0\n");
        assertEquals(0, CliRun.run(env, "queue", "ignore", "here").exitCode());
        CliRun submit = CliRun.run(env, "job", "submit", "--json", "--gpus", "0", "--", "true");
        assertEquals(0, submit.exitCode(), submit.stderr());
        assertTrue(submit.stdout().contains("every queue node is ignored (here)"), submit.stdout());
        assertTrue(submit.stdout().contains("\"state\" : \"pending\""), submit.stdout());
        CliRun tick = CliRun.run(env, "queue", "tick", "--json");
        assertTrue(tick.stdout().contains("\"skipped\" : [ \"here\" ]"), tick.stdout());
        CliRun nodes = CliRun.run(env, "queue", "nodes", "--json", "--no-tick");
        assertTrue(nodes.stdout().contains("\"nodes\" : [ ]"), "ignored nodes are hidden: " + nodes.stdout());
        CliRun all = CliRun.run(env, "queue", "nodes", "--json", "--no-tick", "--include-ignored");
        assertTrue(all.stdout().contains("\"ignored\" : true"), all.stdout());
    }
}
