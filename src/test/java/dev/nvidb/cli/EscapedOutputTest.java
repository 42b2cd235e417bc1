package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A name, note and tag holding a newline and escape sequences are stored and given back exactly
 * in JSON, and printed escaped in text: {@code job ls} shows one row for the job, and no escape
 * sequence reaches the terminal from {@code job submit}, {@code job ls}, {@code job show} or
 * {@code job note}.
 */
class EscapedOutputTest {

    private static final String NAME = "evil\n    2 fake         completed\u001b[2J\u001b]0;title\u0007";
    private static final String NOTE = "line one\nline two\u001b[31m red";

    @TempDir
    Path home;

    private Map<String, String> env;
    private CliRun submitted;

    @BeforeEach
    void queueWithAHostileJob() throws Exception {
        env = CliRun.localQueue(home);
        submitted = CliRun.run(env, "job", "submit", "--no-tick", "--gpus", "0", "--name", NAME, "--note", NOTE,
                "--tag", "t\u001b[5m", "--", "true");
        assertEquals(0, submitted.exitCode(), submitted.stderr());
    }

    private static void noEscape(String text) {
        assertFalse(text.contains("\u001b") || text.contains("\u0007"), text);
    }

    @Test
    void textIsEscapedAndJsonIsExact() throws Exception {
        noEscape(submitted.stderr());
        assertEquals(1, submitted.stderr().lines().count(), submitted.stderr());

        CliRun list = CliRun.run(env, "job", "ls", "--no-tick");
        assertEquals(2, list.stdout().lines().count(), "a header and one row: " + list.stdout());
        noEscape(list.stdout());
        assertTrue(list.stdout().contains("evil\\n"), list.stdout());

        CliRun show = CliRun.run(env, "job", "show", "1", "--no-tick");
        noEscape(show.stdout());
        assertTrue(show.stdout().contains("t\\x1b[5m"), show.stdout());
        assertTrue(show.stdout().contains("line two\\x1b[31m red"), show.stdout());

        CliRun note = CliRun.run(env, "job", "note", "1");
        noEscape(note.stdout());

        CliRun json = CliRun.run(env, "job", "show", "1", "--no-tick", "--json");
        var document = new ObjectMapper().readTree(json.stdout());
        assertEquals(NAME, document.findValue("name").asText());
        assertEquals(NOTE, document.findValue("notes").asText());
    }

    @Test
    void anErrorEchoingWhatWasTypedIsEscaped() {
        CliRun run = CliRun.run(env, "queue", "drain", "x\u001b[2J");
        assertEquals(2, run.exitCode());
        noEscape(run.stderr());
        assertTrue(run.stderr().contains("no node named 'x\\x1b[2J'"), run.stderr());
    }
}
