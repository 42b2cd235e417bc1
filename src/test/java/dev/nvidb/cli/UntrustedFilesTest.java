package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7 item 5: nvidb refuses an NVIDB_HOME, config file, queue database (with its -wal and
 * -shm) or local job_root that another user owns or may write, with one line saying what,
 * where and how to fix it, exit 2, and nothing changed; what it creates itself is owner-only.
 * Real files with real modes; another user's file is made with chown (the tests run as root,
 * and the check compares with the effective uid, so root's own files pass).
 */
class UntrustedFilesTest {

    private static final int OTHER_UID = 4321;

    @TempDir
    Path home;
    private Path nvidb;
    private Map<String, String> env;

    @BeforeEach
    void setUp() throws IOException {
        nvidb = home.resolve(".nvidb");
        Files.createDirectories(nvidb);
        Files.setPosixFilePermissions(nvidb, PosixFilePermissions.fromString("rwx------"));
        Files.writeString(nvidb.resolve("queue.yml"), "queue:\n  local_node_name: here\n");
        env = Map.of("HOME", home.toString(), "NVIDB_HOME", nvidb.toString());
    }

    @Test
    void aWorldWritableNvidbHomeIsRefusedAndNothingIsCreated() throws IOException {
        Files.setPosixFilePermissions(nvidb, PosixFilePermissions.fromString("rwxrwxrwx"));
        CliRun run = CliRun.run(env, "job", "ls", "--no-tick");
        assertRefused(run, "refusing the nvidb directory (NVIDB_HOME) " + nvidb
                + ": it is writable by group and others", "chmod go-w " + nvidb);
        assertFalse(Files.exists(nvidb.resolve("queue.db")), "nothing created");
    }

    @Test
    void aGroupWritableConfigFileIsRefused() throws IOException {
        Path config = nvidb.resolve("queue.yml");
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-rw-r--"));
        CliRun run = CliRun.run(env, "--json", "job", "ls", "--no-tick");
        assertEquals(2, run.exitCode(), run::stderr);
        assertTrue(run.stdout().contains("refusing config file " + config + ": it is writable by its group"),
                run::stdout);
    }

    @Test
    void aQueueDatabaseOwnedByAnotherUserIsRefusedUntouched() throws IOException {
        assumeRoot();
        assertEquals(0, CliRun.run(env, "job", "submit", "--no-tick", "--gpus", "0", "--", "true").exitCode());
        Path db = nvidb.resolve("queue.db");
        Files.setAttribute(db, "unix:uid", OTHER_UID);
        byte[] before = Files.readAllBytes(db);
        CliRun run = CliRun.run(env, "job", "ls", "--no-tick");
        assertRefused(run, "refusing queue database file " + db + ": it is owned by " + OTHER_UID + " (uid "
                + OTHER_UID + "), not by you (uid 0)", "use a file of your own");
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(db)), "unchanged");
    }

    @Test
    void aPlantedWalFileIsRefused() throws IOException {
        assumeRoot();
        Path wal = nvidb.resolve("queue.db-wal");
        Files.writeString(wal, "");
        Files.setAttribute(wal, "unix:uid", OTHER_UID);
        CliRun run = CliRun.run(env, "job", "ls", "--no-tick");
        assertRefused(run, "refusing queue database file " + wal + ": it is owned by", "use a file of your own");
        assertFalse(Files.exists(nvidb.resolve("queue.db")), "nothing created");
    }

    @Test
    void aSymlinkedNvidbHomeIsJudgedByItsTarget() throws IOException {
        Path target = Files.createDirectories(home.resolve("shared"));
        Path link = Files.createSymbolicLink(home.resolve("link"), target);
        Files.writeString(target.resolve("queue.yml"), "queue:\n  local_node_name: here\n");
        Map<String, String> linked = Map.of("HOME", home.toString(), "NVIDB_HOME", link.toString());
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertRefused(CliRun.run(linked, "job", "ls", "--no-tick"), "refusing the nvidb directory (NVIDB_HOME) " + link
                + " (a link to " + target.toRealPath() + "): it is writable by group and others", "chmod go-w " + link);
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwx------"));
        assertEquals(0, CliRun.run(linked, "job", "ls", "--no-tick").exitCode());
    }

    @Test
    void aDatabaseInAStickySharedDirectoryIsFineButNotInAPlainSharedOne() throws IOException {
        Path shared = Files.createDirectories(home.resolve("tmp"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setAttribute(shared, "unix:mode", 01777);
        CliRun sticky = CliRun.run(env, "job", "ls", "--no-tick", "--db-path", shared.resolve("q.db").toString());
        assertEquals(0, sticky.exitCode(), sticky::stderr);
        Files.setAttribute(shared, "unix:mode", 0777);
        CliRun plain = CliRun.run(env, "job", "ls", "--no-tick", "--db-path", shared.resolve("q.db").toString());
        assertRefused(plain, "refusing the queue database's directory " + shared, "chmod go-w " + shared);
    }

    @Test
    void aLocalJobRootWritableByOthersIsRefused() throws IOException {
        Path jobs = Files.createDirectories(home.resolve("jobs"));
        Files.setPosixFilePermissions(jobs, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.writeString(nvidb.resolve("queue.yml"), "queue:\n  local_node_name: here\n  job_root: " + jobs + "\n");
        assertRefused(CliRun.run(env, "job", "ls", "--no-tick"), "refusing job_root " + jobs
                + ": it is writable by group and others", "chmod go-w " + jobs);
    }

    @Test
    void whatNvidbCreatesIsOwnerOnly() throws IOException {
        Path fresh = home.resolve("fresh");
        Map<String, String> freshEnv = Map.of("HOME", home.toString(), "NVIDB_HOME", fresh.toString(),
                "NVIDB_SUBMIT_TICK", "inline");
        CliRun submit = CliRun.run(freshEnv, "job", "submit", "--no-tick", "--gpus", "0", "--", "true");
        assertEquals(0, submit.exitCode(), submit::stderr);
        assertEquals("rwx------", mode(fresh));
        assertEquals("rw-------", mode(fresh.resolve("queue.db")));
        for (String suffix : new String[] {"-wal", "-shm"}) {
            Path file = fresh.resolve("queue.db" + suffix);
            if (Files.exists(file)) {
                assertEquals("rw-------", mode(file), file::toString);
            }
        }
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    private static void assertRefused(CliRun run, String message, String hint) {
        assertEquals(2, run.exitCode(), run::stderr);
        assertEquals("", run.stdout());
        assertTrue(run.stderr().startsWith("nvidb: " + message), run::stderr);
        assertTrue(run.stderr().contains(hint), run::stderr);
        assertFalse(run.stderr().contains("\tat "), "no stack trace: " + run.stderr());
    }

    private static void assumeRoot() {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "chown needs root");
    }
}
