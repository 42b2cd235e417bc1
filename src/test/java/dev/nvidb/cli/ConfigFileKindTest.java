package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A config file that is not a regular file of a sensible size (a FIFO, {@code /dev/zero}, a
 * directory, a dangling symlink, a huge file) is one clear line and exit 2, at once: no hang on
 * a FIFO nobody writes, no memory filled from {@code /dev/zero}. A symlink to a real file is
 * still read (dotfile managers make those).
 */
class ConfigFileKindTest {

    @TempDir
    Path home;

    private Map<String, String> env;
    private Path dir;

    @BeforeEach
    void nvidbHome() throws Exception {
        dir = Files.createDirectories(home.resolve(".nvidb"));
        env = Map.of("HOME", home.toString(), "NVIDB_HOME", dir.toString());
    }

    private CliRun runWithin(String... args) {
        return assertTimeoutPreemptively(Duration.ofSeconds(30), () -> CliRun.run(env, args));
    }

    private void refused(CliRun run, String file, String what) {
        assertEquals(2, run.exitCode(), run.stderr());
        String first = run.stderr().lines().findFirst().orElse("");
        assertTrue(first.startsWith("nvidb: ~/.nvidb/" + file) && first.contains(what), run.stderr());
        assertFalse(run.stderr().contains("\tat "), run.stderr());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"config.yml", "queue.yml"})
    void aFifoIsRefusedWithoutWaitingForAWriter(String file) throws Exception {
        Process mkfifo = new ProcessBuilder("mkfifo", dir.resolve(file).toString()).start();
        assertEquals(0, mkfifo.waitFor());
        refused(runWithin("info"), file, "not a regular file");
        refused(runWithin("job", "ls", "--no-tick"), file, "not a regular file");
    }

    @Test
    void devZeroIsRefused() throws Exception {
        Files.createSymbolicLink(dir.resolve("config.yml"), Path.of("/dev/zero"));
        refused(runWithin("info"), "config.yml", "not a regular file");
        Files.delete(dir.resolve("config.yml"));  // the link, not /dev/zero; @TempDir warns about links out
    }

    @Test
    void aDirectoryIsRefused() throws Exception {
        Files.createDirectories(dir.resolve("queue.yml"));
        refused(runWithin("info"), "queue.yml", "not a regular file");
    }

    @Test
    void aDanglingSymlinkIsRefused() throws Exception {
        Files.createSymbolicLink(dir.resolve("config.yml"), home.resolve("dotfiles/nvidb.yml"));
        refused(runWithin("info"), "config.yml", "symbolic link to");
    }

    @Test
    void aHugeFileIsRefused() throws Exception {
        try (var file = new java.io.RandomAccessFile(dir.resolve("config.yml").toFile(), "rw")) {
            file.setLength(200L << 20);  // sparse: 200 MB that take no disk
        }
        refused(runWithin("info"), "config.yml", "larger than");
    }

    @Test
    void aSymlinkToARealFileIsRead() throws Exception {
        Path real = Files.createDirectories(home.resolve("dotfiles")).resolve("nvidb.yml");
        Files.writeString(real, "basic:\n  connect_timeout: 7\n");
        Files.createSymbolicLink(dir.resolve("config.yml"), real);
        CliRun run = runWithin("info", "--json");
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().contains("\"connect_timeout_s\" : 7"), run.stdout());
    }
}
