package dev.nvidb.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.config.BackupConfig;
import dev.nvidb.config.QueueConfig;
import dev.nvidb.config.RetentionConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's maintenance step: a backup exactly when {@code queue.backup} says one is due. */
class DaemonMaintenanceTest {

    @TempDir
    Path dir;

    static QueueConfig with(QueueConfig base, BackupConfig backup, RetentionConfig retention) {
        return new QueueConfig(base.includeLocal(), base.localNodeName(), base.tickMinInterval(), base.leaseSeconds(),
                base.headroomMb(), base.maxJobsPerGpu(), base.maxCpuJobsPerNode(), base.placement(), base.jobRoot(),
                base.killGraceSeconds(), base.backoffMaxSeconds(), base.lostAfterSeconds(), base.logTailLines(),
                base.notifications(), backup, retention);
    }

    private static List<Path> files(Path folder) throws Exception {
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.sorted().toList();
        }
    }

    @Test
    void theDaemonBacksUpWhenDueAndNotBeforeAndRotatesToKeep() throws Exception {
        Path backups = dir.resolve("backups");
        try (FakeNodeQueue fixture = new FakeNodeQueue(dir.resolve("home"), dir.resolve("home/nvidb/queue.db"),
                base -> with(base, new BackupConfig(true, 24, 2, backups), RetentionConfig.defaults()))) {
            fixture.submit("train");
            Passes daemon = fixture.queue.passes();

            DaemonPass first = daemon.pass();
            assertTrue(first.ok(), first.toString());
            assertNotNull(first.maintenance().backup(), "no backup yet: one is due at once");
            assertEquals(1, files(backups).size());

            fixture.clock.advance(Duration.ofHours(24).minusSeconds(1));
            assertNull(daemon.pass().maintenance().backup(), "not due before interval_hours");
            assertEquals(1, files(backups).size());

            fixture.clock.advance(Duration.ofSeconds(1));
            DaemonPass second = daemon.pass();
            assertNotNull(second.maintenance().backup(), "due after interval_hours");
            assertEquals(fixture.clock.instant(), fixture.queue.backups().lastBackupAt().orElseThrow());

            fixture.clock.advance(Duration.ofHours(24));
            DaemonPass third = daemon.pass();
            assertEquals(List.of(first.maintenance().backup().file()), third.maintenance().backup().removed());
            assertEquals(List.of(second.maintenance().backup().file(), third.maintenance().backup().file()),
                    files(backups), "keep: 2");
            assertEquals(fixture.clock.instant(),
                    fixture.queue.reading().status(false, 0).storage().lastBackupAt());
        }
    }

    @Test
    void aDisabledBackupIsNeverTaken() throws Exception {
        try (FakeNodeQueue fixture = new FakeNodeQueue(dir.resolve("home"), dir.resolve("home/nvidb/queue.db"))) {
            DaemonPass pass = fixture.queue.passes().pass();
            assertNull(pass.maintenance().backup());
            assertFalse(Files.exists(fixture.queue.backups().directory()));
            assertNull(fixture.queue.reading().status(false, 0).storage().lastBackupAt());
        }
    }

    @Test
    void aFailingBackupIsReportedAlertedOnceRetriedLaterAndNeverStopsTheDaemon() throws Exception {
        Path notAFolder = dir.resolve("backups");
        Files.writeString(notAFolder, "a file where the backups folder should be");
        try (FakeNodeQueue fixture = new FakeNodeQueue(dir.resolve("home"), dir.resolve("home/nvidb/queue.db"),
                base -> with(base, new BackupConfig(true, 24, 7, notAFolder), RetentionConfig.defaults()))) {
            Passes daemon = fixture.queue.passes();
            DaemonPass failed = daemon.pass();
            assertNotNull(failed.tick(), "the tick ran");
            assertNotNull(failed.maintenance().backupError());
            assertFalse(failed.ok(), "a failed backup makes the pass not ok (--once exits 1)");

            fixture.clock.advance(Duration.ofMinutes(5));
            assertNull(daemon.pass().maintenance().backupError(), "not retried at every pass");
            fixture.clock.advance(Duration.ofMinutes(10));
            assertNotNull(daemon.pass().maintenance().backupError(), "retried after 15 minutes");
            assertEquals(1, fixture.queue.reading().openAlerts().stream()
                    .filter(alert -> alert.kind().equals("backup_failed")).count(), "one alert for the failure");

            Files.delete(notAFolder);
            fixture.clock.advance(Duration.ofMinutes(15));
            DaemonPass recovered = daemon.pass();
            assertNotNull(recovered.maintenance().backup(), recovered.toString());
            assertTrue(recovered.ok());
        }
    }
}
