package dev.nvidb.bench;

import dev.nvidb.history.GpuLog;
import dev.nvidb.history.SampleQuery;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * How big the GPU history grows: writes {@code HOURS} (default 24) of {@code NODES} (3) nodes with
 * {@code GPUS} (8) GPUs each sampled every second through {@link GpuLog#record}, the same call
 * {@code nvidb log} makes, with values that move like a busy lab's (utilisation and memory
 * wandering, one training process per busy GPU, replaced every few hours), then prints the file's
 * size, bytes per GPU sample, and how long one node's sample took to write. Deterministic (seeded).
 *
 * <p>Usage: {@code BenchGpuLog FILE [HOURS] [NODES] [GPUS]}.
 */
public final class BenchGpuLog {

    private BenchGpuLog() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        double hours = args.length > 1 ? Double.parseDouble(args[1]) : 24;
        int nodes = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int gpus = args.length > 3 ? Integer.parseInt(args[3]) : 8;
        Files.deleteIfExists(file);
        Random random = new Random(7);
        int[] util = new int[nodes * gpus];
        long[] mem = new long[nodes * gpus];
        long[] pid = new long[nodes * gpus];
        for (int i = 0; i < util.length; i++) {
            util[i] = random.nextInt(100);
            mem[i] = random.nextInt(80_000);
            pid[i] = 10_000 + i;
        }
        long seconds = Math.round(hours * 3600);
        Instant start = Instant.parse("2026-11-30T00:00:00Z");
        long began = System.nanoTime();
        try (GpuLog log = GpuLog.open(file)) {
            List<String> names = new ArrayList<>();
            for (int n = 0; n < nodes; n++) {
                names.add("node" + (n + 1));
            }
            long session = log.startSession(start, Duration.ofSeconds(1), "bench", 1, names);
            for (long s = 0; s < seconds; s++) {
                Instant at = start.plusSeconds(s);
                for (int n = 0; n < nodes; n++) {
                    List<GpuSnapshot> snapshot = new ArrayList<>();
                    for (int g = 0; g < gpus; g++) {
                        int i = n * gpus + g;
                        util[i] = Math.max(0, Math.min(100, util[i] + random.nextInt(21) - 10));
                        mem[i] = Math.max(0, Math.min(81_000, mem[i] + random.nextInt(401) - 200));
                        if (random.nextInt(3 * 3600) == 0) {
                            pid[i] += 1_000;
                        }
                        List<GpuProcess> processes = mem[i] > 1_000
                                ? List.of(new GpuProcess(pid[i], "compute", mem[i] - 500, "user" + g, "python",
                                "python train.py --run " + pid[i]))
                                : List.of();
                        snapshot.add(new GpuSnapshot(g, "GPU-" + n + "-" + g, null, "NVIDIA H100 80GB HBM3", 81_559L, mem[i],
                                81_559L - mem[i], util[i], util[i] / 2, 30 + util[i] / 2, 80 + util[i] * 6.1, 700.0, null,
                                processes));
                    }
                    log.record(session, ProbeResult.answered(names.get(n), names.get(n), new NodeSnapshot(GpuSource.NVML, null,
                            NodeInfo.unknown(), "550.54", "12.4", snapshot), Duration.ofMillis(40)), at);
                }
            }
            log.endSession(session, start.plusSeconds(seconds), "duration");
            long queried = System.nanoTime();
            int rows = log.samples(new SampleQuery(session, "node1", 0, start.plusSeconds(seconds / 2),
                    start.plusSeconds(seconds / 2 + 3600), SampleQuery.MAX_LIMIT)).size();
            long queryMs = (System.nanoTime() - queried) / 1_000_000;
            System.out.printf("query: one GPU, one hour (%d rows) in %d ms%n", rows, queryMs);
        }
        long elapsed = System.nanoTime() - began;
        long bytes = Files.size(file);
        long gpuSamples = seconds * nodes * gpus;
        System.out.printf("%s h of %d nodes x %d GPUs at 1 s: %d GPU samples, %.1f MB (%.1f bytes per GPU sample);"
                        + " one node's sample written in %.2f ms on average%n", hours, nodes, gpus, gpuSamples, bytes / 1e6,
                (double) bytes / gpuSamples, elapsed / 1e6 / (seconds * nodes));
    }
}
