package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job on the local node runs with the environment its submitter had (recorded in queue.db at
 * submit), not with that of whichever client's tick launched it (here: this test's JVM, whose
 * environment the in-process submit does not have), plus what run.sh exports.
 */
class LocalJobEnvironmentTest {

    @TempDir
    Path home;

    @Test
    void aLocalJobRunsWithItsSubmittersEnvironment() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", home.toString());
        env.put("NVIDB_HOME", home.resolve(".nvidb").toString());
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        env.put("SUBMITTER_ONLY", "it's \"$(quoted)\"\nline 2");
        Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(home.resolve(".nvidb/queue.yml"), "queue:\n  local_node_name: here\n  tick_min_interval: 0\n");

        CliRun submit = CliRun.run(env, "job", "submit", "--gpus", "0", "--wait", "--", "env -0");
        assertEquals(0, submit.exitCode(), submit.stderr());
        CliRun logs = CliRun.run(env, "job", "logs", "1", "--no-tick");
        Map<String, String> seen = new HashMap<>();
        for (String entry : logs.stdout().split("\0")) {
            int equals = entry.indexOf('=');
            if (equals > 0) {
                seen.put(entry.substring(0, equals), entry.substring(equals + 1));
            }
        }
        assertEquals(env.get("SUBMITTER_ONLY"), seen.get("SUBMITTER_ONLY"), "the submitter's variable, exactly");
        assertEquals(home.toString(), seen.get("HOME"));
        assertEquals("1", seen.get("NVIDB_JOB_ID"), "the queue's own variables still win");
        Set<String> queueSets = Set.of("NVIDB_JOB_DIR", "NVIDB_STATUS_FILE", "NVIDB_JOB_ID", "NVIDB_ATTEMPT",
                "NVIDB_JOB_NAME", "NVIDB_NODE", "CUDA_DEVICE_ORDER", "CUDA_VISIBLE_DEVICES");
        Set<String> bashSets = Set.of("PWD", "SHLVL", "_", "OLDPWD");
        List<String> foreign = seen.keySet().stream()
                .filter(name -> !env.containsKey(name) && !queueSets.contains(name) && !bashSets.contains(name))
                .sorted().toList();
        assertEquals(List.of(), foreign, "nothing from the ticking process's environment");
        List<String> tickers = System.getenv().keySet().stream()
                .filter(name -> !env.containsKey(name) && !bashSets.contains(name)).toList();
        assertTrue(tickers.isEmpty() || tickers.stream().noneMatch(seen::containsKey), Arrays.toString(tickers.toArray()));
        assertFalse(seen.containsKey("NVIDB_LAUNCHER"));
    }
}
