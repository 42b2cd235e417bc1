package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nvidb job why} through the command line on this machine's queue (node "here", whatever
 * GPUs it has): an unknown id is one line and exit 2, a job no node can hold is explained from
 * the stored answer without contacting the node, and a job that is not pending is named with its state.
 */
class JobWhyCommandTest {

    @TempDir
    Path home;

    @Test
    void anUnknownJobIsAUsageError() throws Exception {
        Map<String, String> env = CliRun.localQueue(home);
        CliRun why = CliRun.run(env, "job", "why", "42", "--no-tick");
        assertEquals(2, why.exitCode(), why.stderr());
        assertEquals("", why.stdout());
        assertTrue(why.stderr().startsWith("nvidb: no job 42"), why.stderr());
        assertEquals(2, CliRun.run(env, "job", "why", "x1").exitCode());
    }

    @Test
    void aJobThatCannotFitIsExplainedFromTheStoredAnswerAndNotPendingOnceFailed() throws Exception {
        Map<String, String> env = CliRun.localQueue(home);
        assertEquals(0, CliRun.run(env, "queue", "tick").exitCode());
        CliRun submit = CliRun.run(env, "job", "submit", "--no-tick", "--vram", "2000G", "--", "true");
        assertEquals(0, submit.exitCode(), submit.stderr());

        CliRun why = CliRun.run(env, "job", "why", "1", "--no-tick");
        assertEquals(0, why.exitCode(), why.stderr());
        assertTrue(why.stdout().startsWith("job 1 "), why.stdout());
        assertTrue(why.stdout().contains("can never run: "), why.stdout());
        assertTrue(why.stdout().contains("  here: never fits: "), why.stdout());
        why.stdout().lines().forEach(line -> assertTrue(line.length() <= 80, line));

        CliRun json = CliRun.run(env, "job", "why", "1", "--no-tick", "--json");
        JsonNode document = new ObjectMapper().readTree(json.stdout());
        assertEquals(1, document.get("schema_version").asInt());
        assertTrue(document.get("explained").asBoolean());
        assertEquals("never", document.get("outcome").asText());
        assertEquals("never_fits", document.get("blockers").get(0).get("kind").asText());
        assertEquals("never", document.get("fit").get("verdict").asText());
        assertEquals("here", document.get("nodes").get(0).get("node").asText());
        assertEquals(2048000, document.get("needs").get("vram_mb").asLong());

        assertEquals(0, CliRun.run(env, "queue", "tick").exitCode());
        CliRun failed = CliRun.run(env, "job", "why", "1", "--no-tick");
        assertEquals(0, failed.exitCode(), failed.stderr());
        assertTrue(failed.stdout().startsWith("job 1 (true) is failed, not pending"), failed.stdout());
        JsonNode after = new ObjectMapper().readTree(CliRun.run(env, "job", "why", "1", "--no-tick", "--json").stdout());
        assertEquals(false, after.get("explained").asBoolean());
        assertEquals("failed", after.get("job").get("state").asText());
    }
}
