package dev.nvidb.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The supervisor script's text and the pid file's parsing, without running a keeper. */
class SupervisorScriptTest {

    @TempDir
    Path dir;

    @Test
    void pathsWithQuotesAndSpacesReachBashExactly() throws Exception {
        Path home = dir.resolve("it's a \"home\" $HOME");
        Path launcher = dir.resolve("bin dir/nvidb`x`");
        String script = SupervisorScript.render(launcher, home, "0.5", Path.of("/usr/lib/jvm/bin/java"));
        Path file = dir.resolve("keeper.sh");
        // Only the settings, then print them: what the script's variables hold.
        String settings = script.substring(0, script.indexOf("lock=")) + "printf '%s\\n' \"$NVIDB_HOME\" \"$launcher\" \"$interval\" \"$JAVA\"\n";
        Files.writeString(file, settings.replace("cd \"$NVIDB_HOME\" 2>/dev/null || cd /", ":"));
        Process bash = new ProcessBuilder("bash", file.toString()).redirectErrorStream(true).start();
        assertTrue(bash.waitFor(30, TimeUnit.SECONDS));
        String out = new String(bash.getInputStream().readAllBytes());
        assertEquals(home + "\n" + launcher + "\n0.5\n/usr/lib/jvm/bin/java\n", out);

        Files.writeString(file, script);
        Process syntax = new ProcessBuilder("bash", "-n", file.toString()).redirectErrorStream(true).start();
        assertTrue(syntax.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, syntax.exitValue(), new String(syntax.getInputStream().readAllBytes()));
        assertTrue(script.contains("flock -n 9"), "one supervisor per home");
        assertTrue(script.contains("setsid \"$launcher\" queue daemon --local --interval \"$interval\" </dev/null >>\"$log\" 2>&1 9>&- &"),
                "the daemon leads its own group, without the lock's descriptor");
    }

    @Test
    void aPidFileFromAnotherVersionOrHalfWrittenReadsAsAbsentValues() {
        SupervisorRecord record = SupervisorRecord.parse("supervisor_pid=12\nsupervisor_start=x\nfuture_key=1\nlast_exit=\n");
        assertEquals(12, record.supervisorPid());
        assertEquals(0, record.supervisorStart());
        assertEquals(null, record.lastExit());
        assertEquals(Optional.empty(), record.supervisor(), "no start time: never taken for a live process");
    }

    @Test
    void aStatLineWithSpacesAndParenthesesInTheNameIsParsed() {
        String stat = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 987654 0 0";
        ProcessEntry entry = ProcessEntry.parse(4242, stat).orElseThrow();
        assertEquals(4242, entry.pgrp());
        assertEquals(4242, entry.session());
        assertEquals(987654, entry.startTicks());
        assertTrue(ProcessEntry.parse(7, "7 (zombie) Z 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0").isEmpty());
    }
}
