package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.output.TextStyle;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Width and colour are decided at the edge: $COLUMNS, else the terminal's own width (asked
 * only when there is a terminal), else 80; colour only on a terminal, never with NO_COLOR,
 * TERM=dumb or --json.
 */
class TerminalTest {

    private static final IntSupplier NEVER = () -> {
        throw new AssertionError("the terminal was asked for its size off a terminal");
    };

    @TempDir
    Path home;

    @Test
    void columnsWinsThenTheTerminalThenEighty() {
        assertEquals(132, Terminal.width(Map.of("COLUMNS", "132"), true, () -> 200));
        assertEquals(132, Terminal.width(Map.of("COLUMNS", "132"), false, NEVER));
        assertEquals(200, Terminal.width(Map.of(), true, () -> 200));
        assertEquals(80, Terminal.width(Map.of(), false, NEVER), "no terminal: never asked, 80");
        assertEquals(80, Terminal.width(Map.of(), true, () -> 0), "a terminal that cannot tell: 80");
        assertEquals(200, Terminal.width(Map.of("COLUMNS", "wide"), true, () -> 200), "a bad $COLUMNS is ignored");
        assertEquals(40, Terminal.width(Map.of(), true, () -> 12), "never narrower than 40");
    }

    @Test
    void colourOnlyOnATerminalWithoutNoColor() {
        assertTrue(Terminal.colour(Map.of(), true));
        assertFalse(Terminal.colour(Map.of(), false));
        assertFalse(Terminal.colour(Map.of("NO_COLOR", "1"), true));
        assertTrue(Terminal.colour(Map.of("NO_COLOR", ""), true), "an empty NO_COLOR does not count (no-color.org)");
        assertFalse(Terminal.colour(Map.of("TERM", "dumb"), true));
    }

    private CliRun run(boolean terminal, Map<String, String> extra, String... args) {
        Map<String, String> env = new HashMap<>(Map.of("HOME", home.toString(), "NVIDB_HOME",
                home.resolve(".nvidb").toString(), "COLUMNS", "120"));
        env.putAll(extra);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(new Context(env, new PrintWriter(out, true), new PrintWriter(err, true), terminal), args);
        return new CliRun(code, out.toString(), err.toString());
    }

    @Test
    void jobTableIsColouredOnATerminalOnly() throws Exception {
        Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(home.resolve(".nvidb/queue.yml"), "queue:\n  local_node_name: here\n");
        assertEquals(0, run(false, Map.of(), "job", "submit", "--no-tick", "--gpus", "0", "--", "true").exitCode());
        assertTrue(run(true, Map.of(), "job", "ls", "--no-tick").stdout().contains("\u001b[33mpending"));
        assertFalse(run(false, Map.of(), "job", "ls", "--no-tick").stdout().contains("\u001b"));
        assertFalse(run(true, Map.of("NO_COLOR", "1"), "job", "ls", "--no-tick").stdout().contains("\u001b"));
        assertFalse(run(true, Map.of(), "job", "ls", "--no-tick", "--json").stdout().contains("\u001b"));
        assertFalse(run(true, Map.of(), "queue", "status", "--no-tick", "--json").stdout().contains("\u001b"));
        assertEquals(TextStyle.PLAIN, Terminal.style(new Context(Map.of(), new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()), true), true), "never colour with --json");
    }
}
