package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An empty or blank node name is refused by every node command with one line, exit 2, and no
 * node changes (an empty prefix used to match the only node and drain it).
 */
class NodeNameArgumentTest {

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void queueWithOneNode() throws Exception {
        env = CliRun.localQueue(home);
    }

    @ParameterizedTest(name = "{0} ''{1}''")
    @CsvSource(value = {"drain|''", "resume|''", "ignore|''", "unignore|''", "drain|'  '", "ignore|' \t'"},
            delimiter = '|')
    void isRefusedAndChangesNothing(String verb, String node) {
        CliRun run = CliRun.run(env, "queue", verb, node);
        assertEquals(2, run.exitCode(), run.stderr());
        String first = run.stderr().lines().findFirst().orElse("");
        assertTrue(first.startsWith("nvidb: ") && first.contains("node name cannot be empty"), run.stderr());
        assertFalse(run.stderr().contains("\tat "), run.stderr());
        CliRun nodes = CliRun.run(env, "queue", "nodes", "--no-tick", "--json");
        assertFalse(nodes.stdout().contains("\"drained\" : true"), nodes.stdout());
        assertFalse(nodes.stdout().contains("\"ignored\" : true"), nodes.stdout());
    }

    @ParameterizedTest(name = "job ls --node ''{0}''")
    @CsvSource(value = {"''", "' '"})
    void jobListByAnEmptyNodeIsRefused(String node) {
        CliRun run = CliRun.run(env, "job", "ls", "--no-tick", "--node", node);
        assertEquals(2, run.exitCode(), run.stderr());
        assertTrue(run.stderr().startsWith("nvidb: ") && run.stderr().contains("node name cannot be empty"), run.stderr());
    }
}
