package dev.nvidb.model;

import java.util.List;

/**
 * Everything one probe of one node returned: its GPUs and host facts. {@code error} is a
 * node-level problem the agent reported (for example NVML failing to start) even though the
 * node itself answered.
 */
public record NodeSnapshot(
        GpuSource source,
        String error,
        NodeInfo info,
        String driverVersion,
        String cudaVersion,
        List<GpuSnapshot> gpus) {

    public NodeSnapshot {
        gpus = List.copyOf(gpus);
    }
}
