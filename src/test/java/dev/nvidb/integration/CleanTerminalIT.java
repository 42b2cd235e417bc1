package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nvidb clean} on a real terminal: {@code bin/nvidb} in tmux, its questions read from the
 * terminal; the double confirmation of {@code clean all}, and Ctrl-C at a question (130,
 * nothing changed).
 */
class CleanTerminalIT {

    private static final String CONFIG = "# lab\nservers:\n  - hostname: gpu-a   # big\n  - hostname: gpu-b\n";

    @TempDir
    Path home;

    private Path nvidb;

    @BeforeEach
    void aHomeWithServersAndALog() throws Exception {
        nvidb = home.resolve(".nvidb");
        Files.createDirectories(nvidb);
        Files.writeString(nvidb.resolve("config.yml"), CONFIG);
        Files.write(nvidb.resolve("gpu_log.db"), "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII));
        Files.writeString(nvidb.resolve("gpu_log.db-wal"), "wal");
    }

    @Test
    void cleanAllAsksTwiceThenDeletes() throws Exception {
        try (TmuxScreen terminal = TmuxScreen.nvidb("nvidb-clean-all", 120, 30, home, "clean all")) {
            terminal.await("nvidb clean all deletes:", "Delete all of this? [y/N]");
            terminal.type("y").keys("Enter");
            terminal.await("Type 'delete' to confirm:");
            terminal.type("delete").keys("Enter");
            String screen = terminal.await("EXIT=");
            assertTrue(screen.contains("EXIT=0"), screen);
        }
        assertEquals("# lab\nservers:\n", Files.readString(nvidb.resolve("config.yml")));
        assertFalse(Files.exists(nvidb.resolve("gpu_log.db")));
        assertFalse(Files.exists(nvidb.resolve("gpu_log.db-wal")));
    }

    @Test
    void ctrlCAtAQuestionChangesNothing() throws Exception {
        try (TmuxScreen terminal = TmuxScreen.nvidb("nvidb-clean-menu", 120, 30, home, "clean")) {
            terminal.await("Choose 1, 2 or 3:");
            terminal.type("1").keys("Enter");
            terminal.await("Servers to remove");
            terminal.type("2").keys("Enter");
            terminal.await("Remove gpu-b from ~/.nvidb/config.yml? [y/N]");
            terminal.keys("C-c");
            String screen = terminal.await("EXIT=");
            assertTrue(screen.contains("EXIT=130"), screen);
        }
        assertEquals(CONFIG, Files.readString(nvidb.resolve("config.yml")));
        assertTrue(Files.exists(nvidb.resolve("gpu_log.db")));
    }
}
