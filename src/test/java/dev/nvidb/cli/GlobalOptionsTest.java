package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --json} (and {@code --verbose}) mean the same before the command words as after them:
 * {@code nvidb --json job ls} prints the same JSON document as {@code nvidb job ls --json}.
 */
class GlobalOptionsTest {

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void queueWithOneJob() throws Exception {
        env = CliRun.localQueue(home);
        assertEquals(0, CliRun.run(env, "job", "submit", "--no-tick", "--gpus", "0", "--", "true").exitCode());
    }

    static Stream<Arguments> commands() {
        return Stream.of(
                Arguments.of((Object) new String[] {"job", "ls", "--no-tick"}),
                Arguments.of((Object) new String[] {"job", "show", "1", "--no-tick"}),
                Arguments.of((Object) new String[] {"job", "note", "1", "hello"}),
                Arguments.of((Object) new String[] {"queue", "events"}),
                Arguments.of((Object) new String[] {"queue", "alerts"}),
                Arguments.of((Object) new String[] {"info"}),
                Arguments.of((Object) new String[] {"ls"}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void jsonBeforeTheCommandWordsPrintsJson(String[] command) throws Exception {
        String[] before = new String[command.length + 1];
        before[0] = "--json";
        System.arraycopy(command, 0, before, 1, command.length);
        CliRun run = CliRun.run(env, before);
        assertEquals(0, run.exitCode(), run.stderr());
        JsonNode document = new ObjectMapper().readTree(run.stdout());
        assertEquals(1, document.get("schema_version").asInt(), run.stdout());
    }

    @Test
    void jsonBetweenTheCommandWordsPrintsTheSameDocumentAsAfterThem() throws Exception {
        CliRun after = CliRun.run(env, "job", "ls", "--no-tick", "--json");
        CliRun between = CliRun.run(env, "job", "--json", "ls", "--no-tick");
        CliRun before = CliRun.run(env, "--json", "job", "ls", "--no-tick");
        assertEquals(0, between.exitCode(), between.stderr());
        ObjectMapper mapper = new ObjectMapper();
        assertEquals(mapper.readTree(after.stdout()), mapper.readTree(before.stdout()));
        assertEquals(mapper.readTree(after.stdout()), mapper.readTree(between.stdout()));
    }

    @Test
    void aFailureWithJsonBeforeTheCommandIsTheErrorEnvelope() throws Exception {
        CliRun run = CliRun.run(env, "--json", "job", "show", "42", "--no-tick");
        assertEquals(2, run.exitCode());
        JsonNode document = new ObjectMapper().readTree(run.stdout());
        assertTrue(document.at("/error/message").asText().contains("no job 42"), run.stdout());
    }

    @Test
    void wordsAfterTheDoubleDashAreNotOptions() {
        CliRun run = CliRun.run(env, "--json", "job", "submit", "--no-tick", "--gpus", "0", "--", "echo", "--json");
        assertEquals(0, run.exitCode(), run.stderr());
        CliRun show = CliRun.run(env, "job", "show", "2", "--no-tick");
        assertTrue(show.stdout().contains("echo --json"), show.stdout());
    }
}
