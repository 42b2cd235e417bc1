package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every numeric option refuses what makes no sense (negative, zero where it means nothing,
 * NaN, Infinity, 1e300, past its range) as a usage error: exit 2, one line naming the option,
 * before anything is contacted or changed. A loop given {@code --interval NaN} used to spin
 * without pausing, one given {@code 1e300} to sleep for ever.
 */
class NumericOptionsTest {

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void queueWithOneJob() throws Exception {
        env = CliRun.localQueue(home);
        assertEquals(0, CliRun.run(env, "job", "submit", "--no-tick", "--gpus", "0", "--", "true").exitCode());
    }

    /** Command line (with {@code V} for the value), the option, and the values it refuses. */
    static Stream<Arguments> refused() {
        List<Arguments> cases = new ArrayList<>();
        String[] seconds = {"-1", "0", "NaN", "Infinity", "-Infinity", "1e300", "1e-300", "soon", ""};
        add(cases, "queue tick --no-tick --watch V", "--watch", seconds);
        add(cases, "job logs 1 --no-tick --interval V", "--interval", seconds);
        String[] waits = {"-1", "NaN", "Infinity", "1e300", "0.5", "soon", ""};
        add(cases, "job wait 1 --no-tick --timeout V", "--timeout", waits);
        add(cases, "job submit --no-tick --timeout V -- x", "--timeout", seconds);
        add(cases, "job submit --no-tick --wait --wait-timeout V -- x", "--wait-timeout", waits);
        String[] counts = {"-1", "NaN", "1e300", "99999999999", "x"};
        add(cases, "job logs 1 --no-tick -n V", "--lines", counts);
        add(cases, "job logs 1 --no-tick --offset V", "--offset", new String[] {"-1", "NaN", "1e300"});
        add(cases, "job show 1 --no-tick --logs V", "--logs", counts);
        add(cases, "job wait 1 --no-tick --logs V", "--logs", counts);
        add(cases, "job ls --no-tick -n V", "--limit", counts);
        add(cases, "queue events --no-tick -n V", "--limit", new String[] {"-1", "0", "NaN", "1e300"});
        add(cases, "queue events --no-tick --since V", "--since", new String[] {"-1", "NaN", "1e300"});
        add(cases, "queue status --no-tick --recent V", "--recent", counts);
        add(cases, "job submit --no-tick --retries V -- x", "--retries", counts);
        add(cases, "job priority 1 --no-tick --up V", "--up", new String[] {"-1", "0", "NaN", "1e300"});
        add(cases, "add --hostname h --port V", "--port", new String[] {"-1", "0", "65536", "NaN", "1e300"});
        add(cases, "web --port V", "--port", new String[] {"-1", "0", "65536", "70000", "NaN", "1e300", "x"});
        return cases.stream();
    }

    private static void add(List<Arguments> cases, String line, String option, String[] values) {
        for (String value : values) {
            List<String> args = new ArrayList<>();
            for (String word : line.split(" ")) {
                args.add(word.equals("V") ? value : word);
            }
            cases.add(Arguments.of(line.replace("V", "'" + value + "'"), args.toArray(String[]::new), option));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void isAUsageErrorOfOneLine(String what, String[] args, String option) {
        CliRun run = CliRun.run(env, args);
        assertEquals(2, run.exitCode(), what + ": " + run.stderr());
        String first = run.stderr().lines().findFirst().orElse("");
        assertTrue(first.startsWith("nvidb: ") && first.contains(option), what + ": " + run.stderr());
        assertFalse(run.stderr().contains("\tat "), what + ": " + run.stderr());
        assertTrue(CliRun.run(env, "job", "ls", "--no-tick", "--json").stdout().contains("\"count\" : 1"),
                what + " added no job");
    }

    @Test
    void sensibleValuesAreTaken() {
        assertEquals(0, CliRun.run(env, "job", "ls", "--no-tick", "-n", "0").exitCode());
        assertEquals(0, CliRun.run(env, "queue", "status", "--no-tick", "--recent", "0").exitCode());
        CliRun submitted = CliRun.run(env, "job", "submit", "--no-tick", "--gpus", "0", "--timeout", "90",
                "--retries", "2", "--", "true");
        assertEquals(0, submitted.exitCode(), submitted.stderr());
        assertTrue(CliRun.run(env, "job", "show", "2", "--no-tick").stdout().contains("90 s"));
    }
}
