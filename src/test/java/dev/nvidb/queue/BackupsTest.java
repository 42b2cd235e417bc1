package dev.nvidb.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.StoreException;
import dev.nvidb.error.UsageException;
import dev.nvidb.model.JobSpec;
import dev.nvidb.model.JobState;
import dev.nvidb.store.Database;
import dev.nvidb.store.DatabaseCopy;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.LeaseStore;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code queue backup}: a checked, lease-free copy made under writers, published without overwriting. */
class BackupsTest {

    private static final Set<java.nio.file.attribute.PosixFilePermission> OWNER_ONLY =
            PosixFilePermissions.fromString("rw-------");

    @TempDir
    Path dir;

    @Test
    void backupUnderConcurrentWritersIsCheckedCompleteLeaseFreeOwnerOnlyAndRestoresToAUsableQueue() throws Exception {
        Path live = dir.resolve("home/nvidb/queue.db");
        Path copy;
        long committedBefore;
        long rowsInCopy;
        try (FakeNodeQueue source = new FakeNodeQueue(dir.resolve("home"), live)) {
            for (int i = 0; i < 50; i++) {
                source.submit("seed-" + i);
            }
            source.queue.ticking().now();  // some jobs run on gpu1
            // Another client holds the tick lease for an hour: the copy must not inherit it.
            try (Database other = Database.open(live)) {
                assertTrue(new LeaseStore(other).acquire("other-client", Instant.now(), Duration.ofHours(1)));
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong committed = new AtomicLong();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            CountDownLatch writing = new CountDownLatch(2);
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int writer = w;
                Thread thread = new Thread(() -> {
                    try (Database database = Database.open(live)) {
                        JobStore jobs = new JobStore(database);
                        for (int i = 0; !stop.get(); i++) {
                            long id = jobs.insert(new JobSpec("w" + writer + "-" + i, "true", 0, 0, null, null, Map.of(),
                                    List.of(), null, 0, List.of(), "writer"), 0, null, Instant.now());
                            committed.accumulateAndGet(id, Math::max);
                            if (i == 20) {
                                writing.countDown();
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                        writing.countDown();
                    }
                });
                thread.start();
                writers.add(thread);
            }
            assertTrue(writing.await(60, TimeUnit.SECONDS), "the writers are writing");
            committedBefore = committed.get();
            BackupResult result = source.queue.backups().take(null, null);
            copy = result.file();
            stop.set(true);
            for (Thread thread : writers) {
                thread.join(60_000);
            }
            assertTrue(failures.isEmpty(), "writers never failed because of the backup: " + failures);
            assertTrue(committed.get() > committedBefore, "writers kept writing during the backup");
            assertEquals(result.at(), source.queue.backups().lastBackupAt().orElseThrow());
            assertEquals(dir.resolve("home/nvidb/backups"), copy.getParent());
        }
        assertEquals(List.of("ok"), DatabaseCopy.quickCheck(copy));
        assertEquals(OWNER_ONLY, Files.getPosixFilePermissions(copy));
        assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(copy.getParent()));
        try (Stream<Path> left = Files.list(copy.getParent())) {
            assertEquals(List.of(copy), left.toList(), "only the published copy: no temporary, journal or WAL file");
        }
        try (Database backup = Database.open(copy)) {
            assertNull(new LeaseStore(backup).current().holder(), "the lease is cleared in the copy");
            JobStore jobs = new JobStore(backup);
            for (long id = 1; id <= committedBefore; id++) {
                assertNotNull(jobs.getJob(id), "job " + id + " was committed before the backup began");
            }
            rowsInCopy = jobs.listJobs(dev.nvidb.store.JobFilter.all()).size();
        }

        // Restore as the docs say: the copy becomes queue.db (0600) of a new home.
        Path restored = dir.resolve("restored/nvidb/queue.db");
        Files.createDirectories(restored.getParent());
        Files.copy(copy, restored);
        Files.setPosixFilePermissions(restored, OWNER_ONLY);
        try (FakeNodeQueue queue = new FakeNodeQueue(dir.resolve("restored"), restored)) {
            assertEquals(rowsInCopy, queue.queue.reading().listJobs(JobSelection.all()).size());
            long fresh = queue.submit("after-restore");
            TickResult tick = queue.queue.ticking().now();
            assertTrue(tick.failed().isEmpty(), tick.toString());
            assertTrue(queue.queue.reading().listJobs(JobSelection.all()).stream()
                    .anyMatch(job -> job.job().state() == JobState.RUNNING), "the restored queue places jobs");
            assertTrue(queue.queue.reading().getJob(fresh).job().state() != null);
        }
    }

    @Test
    void anExistingTargetIsNeverOverwrittenAndNothingIsLeftBehind() throws Exception {
        Path target = dir.resolve("out/queue-copy.db");
        Files.createDirectories(target.getParent());
        Files.writeString(target, "precious");
        try (FakeNodeQueue source = new FakeNodeQueue(dir.resolve("home"), dir.resolve("home/nvidb/queue.db"))) {
            source.submit("one");
            UsageException refused = assertThrows(UsageException.class, () -> source.queue.backups().take(target, null));
            assertTrue(refused.getMessage().contains("refusing to overwrite " + target), refused.getMessage());
            assertTrue(source.queue.backups().lastBackupAt().isEmpty(), "no backup recorded");
        }
        assertEquals("precious", Files.readString(target));
        try (Stream<Path> left = Files.list(target.getParent())) {
            assertEquals(List.of(target), left.toList());
        }
    }

    @Test
    void aBackupThatFailsItsCheckIsNotPublishedAndLeavesNoTemporaryFile() throws Exception {
        Path live = dir.resolve("home/nvidb/queue.db");
        try (FakeNodeQueue source = new FakeNodeQueue(dir.resolve("home"), live)) {
            for (int i = 0; i < 300; i++) {
                source.submit("job-" + i + "-" + "x".repeat(200));
            }
        }  // the last connection closed: everything is in queue.db itself
        // Damage the jobs table on disk (pages 3 to 8), as a failing disk would.
        try (RandomAccessFile file = new RandomAccessFile(live.toFile(), "rw")) {
            for (long page = 2; page < 8; page++) {
                file.seek(page * 4096 + 8);
                file.write(new byte[3000]);
            }
        }
        try (FakeNodeQueue source = new FakeNodeQueue(dir.resolve("home"), live)) {
            Path backups = source.queue.backups().directory();
            StoreException failed = assertThrows(StoreException.class, () -> source.queue.backups().take(null, null));
            assertTrue(failed.getMessage().contains("failed its check"), failed.getMessage());
            try (Stream<Path> left = Files.list(backups)) {
                assertEquals(List.of(), left.toList(), "nothing published, no temporary file left");
            }
            assertTrue(source.queue.backups().lastBackupAt().isEmpty());
        }
    }

    @Test
    void twoBackupsInTheSameSecondGetTwoNamesAndKeepDeletesOnlyNvidbsOldBackups() throws Exception {
        try (FakeNodeQueue source = new FakeNodeQueue(dir.resolve("home"), dir.resolve("home/nvidb/queue.db"))) {
            Path backups = source.queue.backups().directory();
            Files.createDirectories(backups);
            List<Path> others = List.of(backups.resolve("notes.txt"), backups.resolve("queue-copy.db"),
                    backups.resolve("queue-20250101T000000Z.db.bak"), backups.resolve("queue-2025.db"));
            for (Path other : others) {
                Files.writeString(other, "not ours");
            }
            Path oldest = backups.resolve("queue-20250101T000000Z.db");
            Path older = backups.resolve("queue-20250102T000000Z.db");
            Files.writeString(oldest, "old");
            Files.writeString(older, "old");
            Path linkLikeOurs = backups.resolve("queue-20240101T000000Z.db");
            Files.createSymbolicLink(linkLikeOurs, backups.resolve("notes.txt"));

            BackupResult first = source.queue.backups().take(null, null);
            BackupResult second = source.queue.backups().take(null, 2);  // same FakeClock second
            assertFalse(first.file().equals(second.file()));
            assertTrue(second.file().getFileName().toString().endsWith("Z-2.db"), second.file().toString());
            assertEquals(Set.of(oldest, older), Set.copyOf(second.removed()));
            assertTrue(Files.exists(first.file()) && Files.exists(second.file()));
            for (Path other : others) {
                assertEquals("not ours", Files.readString(other), other + " is not nvidb's backup");
            }
            assertTrue(Files.isSymbolicLink(linkLikeOurs), "a link is never one of our backups");
        }
    }
}
