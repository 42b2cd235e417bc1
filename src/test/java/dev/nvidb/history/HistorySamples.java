package dev.nvidb.history;

import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Probe results for history tests: nodes with GPUs and processes, failures, a node without a driver. */
public final class HistorySamples {

    private HistorySamples() {
    }

    /** A GPU with {@code usedMb} of 81,920 MiB in use and the given processes. */
    public static GpuSnapshot gpu(int index, int util, long usedMb, List<GpuProcess> processes) {
        return new GpuSnapshot(index, "GPU-" + index + "-uuid", "0000:0" + index + ":00.0", "NVIDIA H100 80GB HBM3", 81_920L,
                usedMb, 81_920L - usedMb, util, util / 2, 40 + util / 4, 100.0 + util * 5.5, 700.0, null, processes);
    }

    public static GpuProcess process(long pid, long memMb, String user, String name) {
        return new GpuProcess(pid, "compute", memMb, user, name, name + " --train");
    }

    /** A node that answered with these GPUs. */
    public static ProbeResult answered(String node, GpuSnapshot... gpus) {
        return ProbeResult.answered(node, node, new NodeSnapshot(GpuSource.NVML, null, NodeInfo.unknown(), "550.54",
                "12.4", List.of(gpus)), Duration.ofMillis(42));
    }

    /** A node that answered with {@code count} idle GPUs. */
    public static ProbeResult idle(String node, int count) {
        List<GpuSnapshot> gpus = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            gpus.add(gpu(i, 0, 0, List.of()));
        }
        return answered(node, gpus.toArray(GpuSnapshot[]::new));
    }

    public static ProbeResult failed(String node, String why) {
        return ProbeResult.failed(node, node, why, Duration.ofSeconds(5));
    }

    /** A node that answered but has no usable driver. */
    public static ProbeResult noDriver(String node) {
        return ProbeResult.answered(node, node, new NodeSnapshot(GpuSource.NVML, "NVML: driver not loaded",
                NodeInfo.unknown(), null, null, List.of()), Duration.ofMillis(30));
    }
}
