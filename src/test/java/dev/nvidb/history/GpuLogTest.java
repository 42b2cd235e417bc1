package dev.nvidb.history;

import static dev.nvidb.history.HistorySamples.answered;
import static dev.nvidb.history.HistorySamples.failed;
import static dev.nvidb.history.HistorySamples.gpu;
import static dev.nvidb.history.HistorySamples.noDriver;
import static dev.nvidb.history.HistorySamples.process;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.StoreException;
import dev.nvidb.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The GPU history file: what goes in comes out, a foreign or broken file is one clear error, old rows go. */
class GpuLogTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @TempDir
    Path dir;

    @Test
    void recordsGpusFailuresAndProcessSpansAndReadsThemBackFiltered() {
        Path file = dir.resolve("gpu_log.db");
        long session;
        try (GpuLog log = GpuLog.open(file)) {
            session = log.startSession(T0, Duration.ofSeconds(1), "ws1", 4242, List.of("a", "b"));
            log.record(session, answered("a", gpu(0, 90, 40_000, List.of(process(77, 39_000, "ann", "python"))),
                    gpu(1, 0, 0, List.of())), T0);
            log.record(session, failed("b", "connection refused"), T0);
            log.record(session, answered("a", gpu(0, 80, 60_000, List.of(process(77, 59_000, "ann", "python"))),
                    gpu(1, 10, 1_000, List.of(process(78, 900, "bob", "julia")))), T0.plusSeconds(1));
            log.record(session, noDriver("b"), T0.plusSeconds(6));
            log.record(session, answered("a", gpu(0, 70, 20_000, List.of(process(77, 19_000, "ann", "python"))),
                    gpu(1, 0, 0, List.of())), T0.plusSeconds(2));
            log.endSession(session, T0.plusSeconds(3), "interrupted");
        }
        try (GpuLog log = GpuLog.openExisting(file)) {
            SessionView view = log.sessions().get(0);
            assertEquals(new SessionView(session, T0, T0.plusSeconds(3), Duration.ofSeconds(1), "ws1", List.of("a", "b"),
                    "interrupted", 5, 2), view);

            List<SampleRow> all = log.samples(SampleQuery.session(session));
            assertEquals(6, all.size(), "3 samples of a with 2 GPUs each; b never answered with GPUs");
            SampleRow first = all.get(0);
            assertEquals(new SampleRow(T0, "a", 0, "NVIDIA H100 80GB HBM3", "GPU-0-uuid", 90, 45, 40_000L, 81_920L, 62,
                    595.0, 700.0, 1), first);

            List<SampleRow> gpu1 = log.samples(new SampleQuery(session, "a", 1, T0.plusSeconds(1), T0.plusSeconds(2), 100));
            assertEquals(1, gpu1.size());
            assertEquals(1_000L, gpu1.get(0).memUsedMb());
            assertEquals(List.of(), log.samples(new SampleQuery(session, "b", null, null, null, 100)));

            assertEquals(List.of(new NodeFailure(T0, "b", "connection refused"),
                    new NodeFailure(T0.plusSeconds(6), "b", "NVML: driver not loaded")), log.failures(session, null));

            List<ProcessSpan> spans = log.processes(session, "a");
            assertEquals(List.of(
                    new ProcessSpan("a", 0, 77, "ann", "python", "python --train", T0, T0.plusSeconds(2), 19_000L, 59_000L),
                    new ProcessSpan("a", 1, 78, "bob", "julia", "julia --train", T0.plusSeconds(1), T0.plusSeconds(1), 900L,
                            900L)), spans);
        }
    }

    @Test
    void aProcessThatGoesAndComesBackIsTwoSpans() {
        try (GpuLog log = GpuLog.open(dir.resolve("g.db"))) {
            long session = log.startSession(T0, Duration.ofSeconds(1), "ws1", 1, List.of("a"));
            log.record(session, answered("a", gpu(0, 50, 1_000, List.of(process(5, 900, "ann", "python")))), T0);
            log.record(session, answered("a", gpu(0, 0, 0, List.of())), T0.plusSeconds(1));
            log.record(session, answered("a", gpu(0, 50, 1_000, List.of(process(5, 800, "ann", "python")))), T0.plusSeconds(2));
            assertEquals(2, log.processes(session, null).size());
        }
    }

    @Test
    void aSessionThatWasKilledHasNoEndAndAReaderSeesTheWritersRowsWhileItWrites() {
        Path file = dir.resolve("gpu_log.db");
        try (GpuLog writer = GpuLog.open(file); GpuLog reader = GpuLog.openExisting(file)) {
            long session = writer.startSession(T0, Duration.ofSeconds(5), "ws1", 1, List.of("a"));
            writer.record(session, HistorySamples.idle("a", 8), T0);
            SessionView running = reader.session(session).orElseThrow();
            assertNull(running.endedAt());
            assertNull(running.endReason());
            assertEquals(8, reader.samples(SampleQuery.session(session)).size());
        }
    }

    @Test
    void theFileIsInWalModeWithOwnerOnlyPermissions() throws Exception {
        Path file = dir.resolve("sub/gpu_log.db");
        GpuLog.open(file).close();
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement();
             ResultSet mode = statement.executeQuery("PRAGMA journal_mode")) {
            mode.next();
            assertEquals("wal", mode.getString(1));
        }
    }

    @Test
    void aMissingForeignNewerOrBrokenFileIsOneClearError() throws Exception {
        StoreException missing = assertThrows(StoreException.class, () -> GpuLog.openExisting(dir.resolve("none.db")));
        assertEquals("no GPU log at " + dir.resolve("none.db"), missing.getMessage());
        assertEquals("run 'nvidb log' first (or give --db-path)", missing.hint().orElseThrow());

        Path queueDb = dir.resolve("queue.db");
        Database.open(queueDb).close();
        StoreException foreign = assertThrows(StoreException.class, () -> GpuLog.openExisting(queueDb));
        assertEquals(queueDb + " is not a GPU log (it is another SQLite database)", foreign.getMessage());
        assertThrows(StoreException.class, () -> GpuLog.open(queueDb), "never writes its tables into a foreign database");

        Path text = dir.resolve("notes.db");
        Files.writeString(text, "these are not the pages you are looking for\n".repeat(200));
        StoreException broken = assertThrows(StoreException.class, () -> GpuLog.openExisting(text));
        assertTrue(broken.getMessage().startsWith(text + " is not a readable GPU log ("), broken.getMessage());
        assertEquals("these are not the pages you are looking for\n".repeat(200), Files.readString(text), "left as it was");

        Path newer = dir.resolve("newer.db");
        GpuLog.open(newer).close();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + newer);
             Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA user_version = 99");
        }
        StoreException refused = assertThrows(StoreException.class, () -> GpuLog.open(newer));
        assertTrue(refused.getMessage().contains("was written by a newer nvidb"), refused.getMessage());

        Path empty = dir.resolve("empty.db");
        Files.createFile(empty);
        assertEquals(empty + " is not a GPU log (it is empty)",
                assertThrows(StoreException.class, () -> GpuLog.openExisting(empty)).getMessage());
    }

    @Test
    void pruningRemovesOldSamplesSpansAndEmptySessionsButNotTheRunningOne() {
        try (GpuLog log = GpuLog.open(dir.resolve("g.db"))) {
            long old = log.startSession(T0, Duration.ofSeconds(1), "ws1", 1, List.of("a"));
            for (int i = 0; i < 12_000; i++) {
                log.record(old, answered("a", gpu(0, i % 100, 100, List.of(process(9, 100, "ann", "python")))),
                        T0.plusSeconds(i));
            }
            log.endSession(old, T0.plusSeconds(12_000), "interrupted");
            long mixed = log.startSession(T0.plusSeconds(20_000), Duration.ofSeconds(1), "ws1", 2, List.of("a"));
            log.record(mixed, HistorySamples.idle("a", 1), T0.plusSeconds(20_000));
            log.record(mixed, HistorySamples.idle("a", 1), T0.plusSeconds(40_000));
            long current = log.startSession(T0.plusSeconds(1), Duration.ofSeconds(1), "ws1", 3, List.of("a"));

            long removed = log.prune(T0.plusSeconds(30_000), current);

            assertEquals(12_001, removed, "every sample before the cut, over several batches");
            assertEquals(List.of(mixed, current), log.sessions().stream().map(SessionView::id).sorted().toList());
            assertEquals(List.of(T0.plusSeconds(40_000)),
                    log.samples(SampleQuery.session(mixed)).stream().map(SampleRow::at).toList());
            assertEquals(List.of(), log.processes(old, null));
        }
    }
}
