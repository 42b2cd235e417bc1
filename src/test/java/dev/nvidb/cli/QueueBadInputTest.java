package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input to the queue commands: one line on stderr saying what was wrong, exit 2, no stack
 * trace, and the queue unchanged (no job was added). Every case is refused before any node
 * is contacted.
 */
class QueueBadInputTest {

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void queueWithOneJob() throws Exception {
        env = CliRun.localQueue(home);
        assertEquals(0, CliRun.run(env, "job", "submit", "--no-tick", "--gpus", "0", "--", "true").exitCode());
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of("--vram 20X", new String[] {"job", "submit", "--vram", "20X", "--", "x"}, "--vram takes a size"),
                Arguments.of("--vram -5G", new String[] {"job", "submit", "--vram", "-5G", "--", "x"}, "--vram takes a size"),
                Arguments.of("--gpus -1", new String[] {"job", "submit", "--gpus", "-1", "--", "x"}, "--gpus must be 0"),
                Arguments.of("--gpus two", new String[] {"job", "submit", "--gpus", "two", "--", "x"}, "Invalid value for option '--gpus'"),
                Arguments.of("unknown id", new String[] {"job", "show", "42"}, "no job 42"),
                Arguments.of("non-numeric id", new String[] {"job", "cancel", "abc"}, "'abc' is not a job id"),
                Arguments.of("--after missing", new String[] {"job", "submit", "--after", "7", "--", "x"}, "job 7 does not exist"),
                Arguments.of("--after non-numeric", new String[] {"job", "submit", "--after", "x1", "--", "x"}, "Invalid value for option '--after'"),
                Arguments.of("invalid env name", new String[] {"job", "submit", "--env", "1BAD=v", "--", "x"}, "--env name '1BAD'"),
                Arguments.of("env without =", new String[] {"job", "submit", "--env", "JUSTNAME", "--", "x"}, "--env takes KEY=VALUE"),
                Arguments.of("reserved env", new String[] {"job", "submit", "--env", "CUDA_VISIBLE_DEVICES=0", "--", "x"}, "--env cannot set"),
                Arguments.of("--node unknown", new String[] {"job", "submit", "--node", "nowhere", "--", "x"}, "no node named 'nowhere'"),
                Arguments.of("missing --script", new String[] {"job", "submit", "--script", "/no/such/file.sh"}, "cannot read --script"),
                Arguments.of("empty command", new String[] {"job", "submit"}, "no command to run"),
                Arguments.of("blank command", new String[] {"job", "submit", "--", "  "}, "no command to run"),
                Arguments.of("bad state", new String[] {"job", "ls", "--state", "sleeping"}, "unknown job state 'sleeping'"),
                Arguments.of("purge running", new String[] {"job", "purge", "--state", "running"}, "only finished jobs"),
                Arguments.of("bad priority", new String[] {"job", "priority", "1", "+x"}, "priority must be a number"),
                Arguments.of("bad result", new String[] {"job", "result", "1", "--set", "[1,2]"}, "--set takes one JSON object"),
                Arguments.of("drain unknown", new String[] {"queue", "drain", "elsewhere"}, "no node named 'elsewhere'"),
                Arguments.of("tick and no-tick", new String[] {"job", "ls", "--tick", "--no-tick"}, "give --tick or --no-tick"),
                Arguments.of("queue screen without a terminal", new String[] {"queue"}, "the queue screen needs a terminal"),
                Arguments.of("queue tui without a terminal", new String[] {"queue", "tui"}, "the queue screen needs a terminal"),
                Arguments.of("queue tui --json", new String[] {"queue", "tui", "--json"}, "the queue screen has no JSON form"),
                Arguments.of("bad --array", new String[] {"job", "submit", "--array", "9-1", "--", "x"}, "--array 9-1: '9-1' ends before it starts"),
                Arguments.of("huge --array", new String[] {"job", "submit", "--array", "0-20000", "--", "x"}, "more than 10000 cells"),
                Arguments.of("bad --group", new String[] {"job", "submit", "--group", "a b", "--", "x"}, "group name 'a b' is not valid"),
                Arguments.of("empty --key", new String[] {"job", "submit", "--key", "", "--", "x"}, "--key is empty"),
                Arguments.of("bad --op-id", new String[] {"job", "submit", "--op-id", "a b", "--", "x"}, "--op-id 'a b' is not valid"),
                Arguments.of("--op-id on a read", new String[] {"job", "ls", "--op-id", "x"}, "Unknown option"),
                Arguments.of("release unknown group", new String[] {"queue", "release-group", "nope"}, "no group nope"),
                Arguments.of("requeue --group without --failed", new String[] {"job", "requeue", "--group", "g"}, "job requeue --group needs --failed"),
                Arguments.of("--retry-oom 11", new String[] {"job", "submit", "--retry-oom", "11", "--", "x"}, "'11' is not a whole number from 0 to 10"),
                Arguments.of("--retry-oom -1", new String[] {"job", "submit", "--retry-oom", "-1", "--", "x"}, "'-1' is not a whole number from 0 to 10"),
                Arguments.of("--retry-oom on a CPU job", new String[] {"job", "submit", "--gpus", "0", "--retry-oom", "2", "--", "x"}, "--retry-oom needs a GPU job"),
                Arguments.of("cancel without ids", new String[] {"job", "cancel"}, "no jobs given"),
                Arguments.of("queue tui --refresh 0", new String[] {"queue", "tui", "--refresh", "0"}, "--refresh must be 1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void isOneLineExitTwoAndChangesNothing(String what, String[] args, String message) {
        CliRun run = CliRun.run(env, args);
        assertEquals(2, run.exitCode(), what + ": " + run.stderr());
        String first = run.stderr().lines().findFirst().orElse("");
        assertTrue(first.startsWith("nvidb: ") && first.contains(message), what + ": " + run.stderr());
        assertFalse(run.stderr().contains("\tat "), "no stack trace: " + run.stderr());
        CliRun list = CliRun.run(env, "job", "ls", "--no-tick", "--json");
        assertTrue(list.stdout().contains("\"count\" : 1"), "still exactly one job: " + list.stdout());
    }
    static Stream<Arguments> namesWhatAFreshHomeHasNot() {
        return Stream.of(
                Arguments.of("job show", new String[] {"job", "show", "5"}, "no job 5"),
                Arguments.of("job why", new String[] {"job", "why", "5"}, "no job 5"),
                Arguments.of("job logs", new String[] {"job", "logs", "5"}, "no job 5"),
                Arguments.of("job wait", new String[] {"job", "wait", "5", "6"}, "no job 5"),
                Arguments.of("job cancel", new String[] {"job", "cancel", "5"}, "no job 5"),
                Arguments.of("job requeue", new String[] {"job", "requeue", "5"}, "no job 5"),
                Arguments.of("job note", new String[] {"job", "note", "5", "hi"}, "no job 5"),
                Arguments.of("job priority", new String[] {"job", "priority", "5", "3"}, "no job 5"),
                Arguments.of("job result", new String[] {"job", "result", "5", "--set", "{\"a\":1}"}, "no job 5"),
                Arguments.of("queue ack", new String[] {"queue", "ack", "5"}, "no open alert 5"),
                Arguments.of("submit --after", new String[] {"job", "submit", "--after", "99", "--", "true"}, "job 99 does not exist"),
                Arguments.of("submit --after-any", new String[] {"job", "submit", "--after-any", "7", "--", "true"}, "job 7 does not exist"),
                Arguments.of("submit --wait --after", new String[] {"job", "submit", "--wait", "--after", "9", "--", "true"}, "job 9 does not exist"));
    }

    /** A home where nothing was ever submitted has no database, and a wrong id does not make one. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("namesWhatAFreshHomeHasNot")
    void onAFreshHomeAWrongIdCreatesNoDatabase(String what, String[] args, String message, @TempDir Path fresh) throws Exception {
        Map<String, String> freshEnv = CliRun.localQueue(fresh);
        CliRun run = CliRun.run(freshEnv, args);
        assertEquals(2, run.exitCode(), what + ": " + run.stderr());
        String first = run.stderr().lines().findFirst().orElse("");
        assertTrue(first.startsWith("nvidb: ") && first.contains(message), what + ": " + run.stderr());
        try (Stream<Path> left = Files.list(fresh.resolve(".nvidb"))) {
            assertEquals(List.of("queue.yml"), left.map(path -> path.getFileName().toString()).toList(),
                    what + " left only the configuration it found");
        }
    }
}
