package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.history.GpuLog;
import dev.nvidb.history.SessionView;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nvidb log} in-process: which nodes, where, the session's end, and bad input. */
class LogCommandTest {

    @TempDir
    Path home;

    private Map<String, String> env(String configYml) throws Exception {
        Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(home.resolve(".nvidb/config.yml"), configYml);
        return Map.of("HOME", home.toString(), "NVIDB_HOME", home.resolve(".nvidb").toString(), "PATH", "/usr/bin:/bin");
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void aDurationEndsTheSessionWithItsReasonAndTheConfiguredFileAndIntervalAreUsed() throws Exception {
        Path db = home.resolve("logs/lab.db");
        Map<String, String> env = env("log:\n  interval: 7\n  db_path: " + db + "\n");
        CliRun run = CliRun.run(env, "log", "--duration", "0.3");
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stderr().contains("every 7 s into ~/logs/lab.db; stopping after 0.3 s"), run.stderr());
        try (GpuLog log = GpuLog.openExisting(db)) {
            SessionView session = log.sessions().get(0);
            assertEquals("duration", session.endReason());
            assertEquals(7, session.interval().toSeconds());
            assertEquals(1, session.nodes().size(), "this machine only: " + session.nodes());
        }
    }

    @Test
    void remoteBeforeOrAfterTheCommandWordAddsTheServersAndNoRemoteTakesThemAway() throws Exception {
        int port = closedPort();
        Map<String, String> env = env("basic:\n  connect_timeout: 1\nservers:\n  - hostname: 127.0.0.1\n    port: " + port
                + "\n    nickname: lab-1\n");
        Path db = home.resolve("g.db");
        for (List<String> words : List.of(List.of("--remote", "log"), List.of("log", "--remote"))) {
            List<String> args = new java.util.ArrayList<>(words);
            args.addAll(List.of("--duration", "0.2", "--db-path", db.toString()));
            CliRun run = CliRun.run(env, args.toArray(String[]::new));
            assertEquals(0, run.exitCode(), run.stderr());
            assertTrue(run.stderr().contains("lab-1"), words + ": " + run.stderr());
        }
        Map<String, String> remoteByDefault = env("basic:\n  remote: true\n  include_local: false\nservers:\n"
                + "  - hostname: 127.0.0.1\n    port: " + port + "\n    nickname: lab-1\n");
        CliRun local = CliRun.run(remoteByDefault, "--no-remote", "log", "--duration", "0.2", "--db-path", db.toString());
        assertEquals(0, local.exitCode(), local.stderr());
        assertFalse(local.stderr().contains("lab-1"), local.stderr());
    }

    @Test
    void badInputIsOneLineAndWritesNothing() throws Exception {
        Map<String, String> env = env("");
        Path text = home.resolve("notes.txt");
        Files.writeString(text, "not a database, just some notes\n".repeat(100));
        CliRun corrupt = CliRun.run(env, "log", "--duration", "0.2", "--db-path", text.toString());
        assertEquals(1, corrupt.exitCode());
        assertEquals("nvidb: " + text + " is not a readable GPU log (file is not a database)",
                corrupt.stderr().lines().findFirst().orElseThrow());
        assertFalse(corrupt.stderr().contains("Exception"), corrupt.stderr());
        assertEquals("not a database, just some notes\n".repeat(100), Files.readString(text));

        CliRun directory = CliRun.run(env, "log", "--duration", "0.2", "--db-path", home.toString());
        assertEquals(1, directory.exitCode());
        assertEquals("nvidb: " + home + " is a directory, not a GPU log file", directory.stderr().lines().findFirst().orElseThrow());

        CliRun tooFast = CliRun.run(env, "log", "--interval", "0.05");
        assertEquals(2, tooFast.exitCode());
        assertEquals("nvidb: --interval must be at least 0.2 seconds, got 0.05", tooFast.stderr().lines().findFirst().orElseThrow());

        CliRun badConfig = CliRun.run(env("log:\n  interval: 0\n"), "log", "--duration", "0.2");
        assertEquals(2, badConfig.exitCode());
        assertTrue(badConfig.stderr().startsWith("nvidb: ~/.nvidb/config.yml:2: "), badConfig.stderr());
        assertFalse(Files.exists(home.resolve(".nvidb/gpu_log.db")), "nothing written");
    }
}
