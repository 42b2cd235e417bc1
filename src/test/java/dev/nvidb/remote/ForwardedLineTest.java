package dev.nvidb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.config.RemoteConfig;
import dev.nvidb.error.UsageException;
import dev.nvidb.remote.ForwardedLine;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Which command lines forward, and the one shell command that runs them on the queue host. */
class ForwardedLineTest {

    private static final RemoteConfig REMOTE = new RemoteConfig("qhost", "/opt/nvidb/bin/nvidb", null, null);

    @Test
    void queueCommandsForwardAndEverythingElseStaysHere() {
        for (String line : List.of("job ls", "job submit -- true", "queue", "queue status --json", "--json job ls",
                "--verbose queue alerts", "queue keeper ensure", "job submit -- sh -c --local", "job submit -- x --help")) {
            assertTrue(ForwardedLine.forwards(List.of(line.split(" "))), line);
        }
        for (String line : List.of("", "ls", "info", "add", "--version", "help job", "completion bash", "job ls --local",
                "--local job ls", "job --local ls", "job submit --help", "queue -h", "trust gpu-a")) {
            assertFalse(ForwardedLine.forwards(line.isEmpty() ? List.of() : List.of(line.split(" "))), line);
        }
    }

    @Test
    void theKeeperIsEnsuredExceptForItsOwnCommandsOrWhenOff() {
        assertTrue(ForwardedLine.command(REMOTE, List.of("job", "ls")).contains("queue keeper ensure </dev/null >&2; exec "));
        assertFalse(ForwardedLine.command(REMOTE, List.of("queue", "keeper", "stop")).contains("ensure"));
        assertFalse(ForwardedLine.command(REMOTE, List.of("queue", "daemon", "--once")).contains("ensure"));
        RemoteConfig off = new RemoteConfig("qhost", "nvidb", null, null, null, RemoteConfig.Keeper.OFF);
        assertFalse(ForwardedLine.command(off, List.of("job", "ls")).contains("ensure"));
    }

    /** The line, run by a real sh with printf standing in for nvidb, gives back every word exactly. */
    @Test
    void everyWordSurvivesTheFarShell() throws Exception {
        List<String> words = List.of("job", "submit", "--name", "it's \"q\" $HOME `id` \\ *", "--", "a\nb", "", "ünï 🚀", "'");
        RemoteConfig printf = new RemoteConfig("qhost", "/usr/bin/printf", null, null, null, RemoteConfig.Keeper.OFF);
        List<String> args = new ArrayList<>(List.of("%s\\0"));
        args.addAll(words);
        Process sh = new ProcessBuilder("/bin/sh", "-c", ForwardedLine.command(printf, args)).start();
        byte[] out = sh.getInputStream().readAllBytes();
        assertTrue(sh.waitFor(10, TimeUnit.SECONDS));
        String[] got = new String(out, StandardCharsets.UTF_8).split("\0", -1);
        assertEquals(words, List.of(got).subList(0, got.length - 1));
    }

    @Test
    void aScriptIsShippedAsTheCommandAndTooLongALineIsRefused() throws Exception {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("ship", ".sh");
        try {
            java.nio.file.Files.writeString(file, "echo hi\n");
            dev.nvidb.config.NvidbHome home = new dev.nvidb.config.NvidbHome(file.getParent(), file.getParent());
            assertEquals(List.of("job", "submit", "--wait", "--", "echo hi\n"),
                    ForwardedLine.shipScript(List.of("job", "submit", "--script", file.toString(), "--wait"), home));
            assertEquals(List.of("job", "submit", "--", "echo hi\n"),
                    ForwardedLine.shipScript(List.of("job", "submit", "--script=" + file), home));
            assertEquals(List.of("job", "submit", "--", "x", "--script", "y"),
                    ForwardedLine.shipScript(List.of("job", "submit", "--", "x", "--script", "y"), home));
            UsageException tooLong = assertThrows(UsageException.class, () -> ForwardedLine.command(REMOTE,
                    List.of("job", "submit", "--", "x".repeat(ForwardedLine.MAX_BYTES))));
            assertTrue(tooLong.getMessage().startsWith("the command line forwarded to qhost would be "), tooLong.getMessage());
        } finally {
            java.nio.file.Files.delete(file);
        }
    }
}
