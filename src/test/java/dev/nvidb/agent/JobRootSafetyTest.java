package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nvidb.agent.JobReport.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The node's side of "another user cannot subvert the queue" (issue 7, item 5) and of a job
 * that fills the disk: a job root that others own or may write is refused at launch with the
 * fix in one line; a link planted where a job directory or one of the queue's files belongs is
 * never followed; the exit status of a job that filled the disk is still recorded.
 */
class JobRootSafetyTest extends LocalJobs {

    private Path mounted;

    @AfterEach
    void unmount() {
        if (mounted != null) {
            run("umount", "-l", mounted.toString());
        }
    }

    @Test
    void jobRootWritableByOthersIsRefusedWithTheFix() throws Exception {
        Path root = Files.createDirectories(home.resolve(".nvidb/jobs"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));

        LaunchReport report = launchAll(launch(1, "true")).get(0);

        assertEquals(LaunchReport.Outcome.FAILED, report.outcome());
        assertTrue(report.error().contains("writable by others") && report.error().contains("chmod go-w"),
                report.error());
        assertFalse(Files.exists(jobDir(1)), "nothing was created under it");
    }

    @Test
    void directoryAboveTheJobRootWritableByEveryoneIsRefusedUnlessSticky() throws Exception {
        Path above = Files.createDirectories(home.resolve(".nvidb"));
        Files.createDirectories(above.resolve("jobs"));
        Files.setPosixFilePermissions(above, PosixFilePermissions.fromString("rwxrwxrwx"));

        LaunchReport refused = launchAll(launch(6, "true")).get(0);
        assertEquals(LaunchReport.Outcome.FAILED, refused.outcome());
        assertTrue(refused.error().contains("writable by everyone") && refused.error().contains(above.toString()),
                refused.error());

        run("chmod", "1777", above.toString()); // sticky, like /tmp: others cannot replace what is ours
        LaunchRequest launch = launch(7, "true");
        assertEquals(LaunchReport.Outcome.STARTED, launchAll(launch).get(0).outcome());
        assertEquals(0, awaitEnd(launch).exitCode());
    }

    @Test
    void jobRootOwnedByAnotherUserIsRefused() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "chown needs root (CI runs as root)");
        Path root = Files.createDirectories(home.resolve(".nvidb/jobs"));
        run("chown", "12345", root.toString());

        LaunchReport report = launchAll(launch(2, "true")).get(0);

        assertEquals(LaunchReport.Outcome.FAILED, report.outcome());
        assertTrue(report.error().contains("owned by uid 12345"), report.error());
    }

    @Test
    void linkPlantedAsAJobDirectoryIsNotFollowed() throws Exception {
        Path victim = Files.createDirectories(dir.resolve("victim"));
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(home.resolve(".nvidb/jobs"));
        Files.createSymbolicLink(home.resolve(".nvidb/jobs/3"), victim);

        LaunchReport report = launchAll(launch(3, "true")).get(0);

        assertEquals(LaunchReport.Outcome.FAILED, report.outcome());
        assertTrue(report.error().contains("not a directory"), report.error());
        assertEquals("rwxr-xr-x", permissions(victim), "not chmodded through the link");
        assertEquals(0, JobIdentityTest.list(victim).size(), "nothing written through the link");
    }

    @Test
    void linkPlantedAtATemporaryFileIsReplacedNotFollowed() throws Exception {
        Path victim = dir.resolve("victim.txt");
        Files.writeString(victim, "precious\n");
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-r--r--"));
        Path attempt = Files.createDirectories(jobDir(4));
        Files.setPosixFilePermissions(attempt, PosixFilePermissions.fromString("rwx------"));
        for (String name : List.of("run.sh.tmp", "token.tmp", "pid.tmp")) {
            Files.createSymbolicLink(attempt.resolve(name), victim);
        }

        LaunchRequest launch = launch(4, "echo ok");
        assertEquals(LaunchReport.Outcome.STARTED, launchAll(launch).get(0).outcome());
        assertEquals(0, awaitEnd(launch).exitCode());

        assertEquals("precious\n", Files.readString(victim));
        assertEquals("rw-r--r--", permissions(victim));
    }

    @Test
    void jobThatFillsTheDiskIsExitedWithItsCodeNotVanished() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "mounting a small tmpfs needs root (CI runs as root)");
        Path root = Files.createDirectories(home.resolve(".nvidb/jobs"));
        run("mount", "-t", "tmpfs", "-o", "size=512k,mode=0700", "tmpfs", root.toString());
        mounted = root;
        assumeTrue(Files.readString(Path.of("/proc/mounts")).contains(root.toString()), "tmpfs mounted");

        LaunchRequest launch = launch(5, "head -c 2000000 /dev/zero > fill; yes > stdout-filler; exit 3");
        assertEquals(LaunchReport.Outcome.STARTED, launchAll(launch).get(0).outcome());
        JobReport ended = awaitEnd(launch);

        assertEquals(Status.EXITED, ended.status(), ended.reason());
        assertEquals(3, ended.exitCode());
    }
}
