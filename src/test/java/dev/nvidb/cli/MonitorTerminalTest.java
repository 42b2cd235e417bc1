package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The interactive monitor needs a terminal; without one, plain {@code nvidb} says so in one line. */
class MonitorTerminalTest {

    @TempDir
    Path home;

    private Map<String, String> env() {
        return Map.of("HOME", home.toString(), "NVIDB_HOME", home.resolve(".nvidb").toString());
    }

    @Test
    void withoutATerminalPlainNvidbPointsToOnceAndExitsTwo() {
        CliRun run = CliRun.run(env());
        assertEquals(2, run.exitCode());
        assertEquals("", run.stdout());
        assertEquals("nvidb: the interactive monitor needs a terminal; use 'nvidb --once' for a one-shot report",
                run.stderr().lines().findFirst().orElseThrow());
        assertFalse(run.stderr().contains("Exception"), run.stderr());
        assertEquals(2, CliRun.run(env(), "--remote").exitCode());
    }

    @Test
    void jsonNeedsOnce() {
        CliRun run = CliRun.run(env(), "--json");
        assertEquals(2, run.exitCode());
        assertEquals("nvidb: --json needs --once: the interactive monitor draws on a terminal",
                run.stderr().lines().findFirst().orElseThrow());
    }

    @Test
    void aBadIntervalIsAUsageError() {
        CliRun run = CliRun.run(env(), "--interval", "NaN");
        assertEquals(2, run.exitCode());
        assertEquals(1, run.stderr().lines().filter(line -> line.startsWith("nvidb:")).count(), run.stderr());
    }
}
