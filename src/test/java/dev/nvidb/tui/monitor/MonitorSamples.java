package dev.nvidb.tui.monitor;

import dev.nvidb.model.GpuClaim;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeClaims;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
import dev.nvidb.model.QueueDemand;
import dev.nvidb.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Hand-built nodes for the monitor screen's pure tests, and a screen over them. */
final class MonitorSamples {

    static final Instant NOW = FakeClock.atDefaultStart().instant();

    private MonitorSamples() {
    }

    static GpuSnapshot gpu(int index, String name, long total, long used, Integer util, Integer temp,
                           GpuProcess... processes) {
        return new GpuSnapshot(index, "GPU-" + index, "0000:0" + index + ":00.0", name, total, used, total - used, util, 5,
                temp, 250.0, 700.0, null, List.of(processes));
    }

    static GpuSnapshot lost(int index) {
        return new GpuSnapshot(index, null, null, "NVIDIA A100-SXM4-40GB", null, null, null, null, null, null, null,
                null, "GPU is lost", List.of());
    }

    static GpuProcess process(long pid, String user, long memMb, String command) {
        String name = command.split(" ")[0];
        return new GpuProcess(pid, "compute", memMb, user, name, command);
    }

    static NodeFeed node(String name, GpuSnapshot... gpus) {
        NodeSnapshot snapshot = new NodeSnapshot(GpuSource.NVML, null, new NodeInfo(name + ".lab", "boot", 1.0,
                List.of(0.5), 32, "/", 1000L, "3.11", "0", false), "550.54.14", "12.4", List.of(gpus));
        return new NodeFeed(name, "10.0.0." + name.length(), ProbeResult.answered(name, "10.0.0." + name.length(),
                snapshot, Duration.ofMillis(40)), 1, null);
    }

    /**
     * One node shared by two queues: carol's queue "laptop" claims 16 GiB of GPU 0 for its job 4,
     * a node policy shares fairly, and dave's queue waits there with three GPU jobs.
     */
    static NodeFeed shared(String name) {
        NodeClaims claims = new NodeClaims("/tmp/nvidb-claims", null, List.of(), List.of(
                new GpuClaim("carol", 1002, "9e8d7c6b5a4f3e2d", "laptop", 4, List.of("GPU-0"), 16384, false,
                        Map.of(), false)),
                List.of(new QueueDemand("dave", 1003, "1a2b3c4d5e6f7a8b", "desk", 3, 1, 8192, false,
                        NOW.minusSeconds(600).getEpochSecond(), false)),
                "share: fair\n", null, new NodeClaims.User(1000, "alice"));
        NodeSnapshot snapshot = new NodeSnapshot(GpuSource.NVML, null, new NodeInfo(name + ".lab", "boot", 1.0,
                List.of(0.5), 32, "/", 1000L, "3.11", "0", false), "550.54.14", "12.4",
                List.of(gpu(0, "NVIDIA L40S", 46068, 0, 0, 30), gpu(1, "NVIDIA L40S", 46068, 0, 0, 30)), claims);
        return new NodeFeed(name, "10.0.0." + name.length(), ProbeResult.answered(name, "10.0.0." + name.length(),
                snapshot, Duration.ofMillis(40)), 1, null);
    }

    static NodeFeed withoutGpus(String name) {
        NodeSnapshot snapshot = new NodeSnapshot(GpuSource.NONE, "NVIDIA driver not loaded", NodeInfo.unknown(), null,
                null, List.of());
        return new NodeFeed(name, "local", ProbeResult.answered(name, "local", snapshot, Duration.ofMillis(5)), 1, null);
    }

    static NodeFeed down(String name, String why) {
        return new NodeFeed(name, "10.9.9.9:22", ProbeResult.failed(name, "10.9.9.9:22", name + ": " + why,
                Duration.ofSeconds(3)), 3, NOW.plusSeconds(8));
    }

    /** Three nodes: two with GPUs (one with a foreign process and a lost GPU), one down. */
    static List<NodeFeed> lab() {
        List<NodeFeed> nodes = new ArrayList<>();
        nodes.add(node("gpu-a",
                gpu(0, "NVIDIA H100 80GB HBM3", 81559, 30720, 88, 71,
                        process(4242, "alice", 30000, "python train.py --epochs 100 --lr 0.001"),
                        process(4343, "bob", 512, "sleep 600")),
                gpu(1, "NVIDIA H100 80GB HBM3", 81559, 0, 0, 35)));
        nodes.add(node("gpu-b", gpu(0, "NVIDIA RTX A6000", 49140, 2048, 3, 40), lost(1)));
        nodes.add(down("gpu-c", "connection refused"));
        return nodes;
    }

    /** A source that serves fixed nodes and records signals. */
    static final class FixedSource implements MonitorSource {
        List<NodeFeed> nodes;
        final List<SignalRequest> signals = new ArrayList<>();
        long version = 1;

        FixedSource(List<NodeFeed> nodes) {
            this.nodes = nodes;
        }

        @Override
        public List<NodeFeed> nodes() {
            return nodes;
        }

        @Override
        public long version() {
            return version;
        }

        @Override
        public void signal(SignalRequest request, java.util.function.Consumer<SignalOutcome> done) {
            signals.add(request);
            done.accept(new SignalOutcome(request, true, "sent " + request.describe()));
        }
    }
}
