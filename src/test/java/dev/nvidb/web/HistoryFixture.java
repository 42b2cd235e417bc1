package dev.nvidb.web;

import dev.nvidb.history.GpuLog;
import dev.nvidb.history.HistorySamples;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A GPU log written through {@link GpuLog}'s own writer, with fixed times: session 1 (ended, one
 * node, two samples) and session 2 (two nodes: gpu-a with two GPUs and a training process,
 * gpu-b with one GPU that misses one probe), twelve samples 5 s apart.
 */
public final class HistoryFixture {

    /** When session 2 began: 2026-01-02 03:00:00 UTC. */
    public static final Instant START = Instant.parse("2026-01-02T03:00:00Z");
    public static final int SAMPLES = 12;

    private HistoryFixture() {
    }

    /** Writes the log at {@code file}. */
    public static Path write(Path file) {
        try (GpuLog log = GpuLog.open(file)) {
            Instant earlier = START.minus(Duration.ofHours(1));
            long first = log.startSession(earlier, Duration.ofSeconds(5), "workstation", 4100, List.of("gpu-a"));
            log.record(first, HistorySamples.idle("gpu-a", 2), earlier);
            log.record(first, HistorySamples.idle("gpu-a", 2), earlier.plusSeconds(5));
            log.endSession(first, earlier.plusSeconds(7), "interrupted");

            long session = log.startSession(START, Duration.ofSeconds(5), "workstation", 4200, List.of("gpu-a", "gpu-b"));
            GpuProcess training = HistorySamples.process(31337, 20_000, "alice", "python");
            for (int i = 0; i < SAMPLES; i++) {
                Instant at = START.plusSeconds(5L * i);
                List<GpuSnapshot> gpus = new ArrayList<>();
                gpus.add(HistorySamples.gpu(0, (i * 17) % 100, 20_000 + 1_000L * i, List.of(training)));
                gpus.add(HistorySamples.gpu(1, (i * 29 + 40) % 100, 2_000, List.of()));
                log.record(session, HistorySamples.answered("gpu-a", gpus.toArray(GpuSnapshot[]::new)), at);
                log.record(session, i == 7 ? HistorySamples.failed("gpu-b", "gpu-b: connection timed out after 5 s")
                        : HistorySamples.answered("gpu-b", HistorySamples.gpu(0, (i * 11 + 5) % 100, 40_000, List.of())), at);
            }
            log.endSession(session, START.plusSeconds(5L * SAMPLES), "interrupted");
        }
        return file;
    }
}
