package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code job wait} shows the waited-for jobs' states in place on a terminal (stderr, erased at
 * the end) and prints nothing extra elsewhere; stdout's report is the same either way.
 */
class JobWaitDisplayTest {

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void oneCancelledJob() throws Exception {
        env = Map.of("HOME", home.toString(), "NVIDB_HOME", home.resolve(".nvidb").toString(), "COLUMNS", "60");
        Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(home.resolve(".nvidb/queue.yml"), "queue:\n  local_node_name: here\n");
        assertEquals(0, CliRun.run(env, "job", "submit", "--no-tick", "--gpus", "0", "-n", "a", "--", "true").exitCode());
        assertEquals(0, CliRun.run(env, "job", "cancel", "1", "--no-tick").exitCode());
    }

    @Test
    void withoutATerminalOnlyTheReportIsPrinted() {
        CliRun run = CliRun.run(env, "job", "wait", "1", "--no-tick");
        assertEquals(1, run.exitCode());
        assertEquals("1 cancelled: cancelled by request\n", run.stdout());
        assertEquals("", run.stderr());
    }

    @Test
    void onATerminalTheStatesAreDrawnOnStderrAndErasedBeforeTheReport() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(new Context(env, new PrintWriter(out, true), new PrintWriter(err, true), true),
                "job", "wait", "1", "--no-tick");
        assertEquals(1, code);
        assertEquals("1 cancelled: cancelled by request\n", out.toString(), "stdout is the same as without a terminal");
        assertEquals("\u001b[2Kjob 1 cancelled: cancelled by request\n\u001b[J" + "\u001b[1F\u001b[J", err.toString());
    }
}
