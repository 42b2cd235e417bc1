package dev.nvidb.model;

import java.util.List;

/**
 * Everything one probe of one node returned: its GPUs and host facts. {@code error} is a
 * node-level problem the agent reported (for example NVML failing to start) even though the
 * node itself answered. {@code claims} are the node's live GPU claims of every queue (docs/sharing.md).
 */
public record NodeSnapshot(
        GpuSource source,
        String error,
        NodeInfo info,
        String driverVersion,
        String cudaVersion,
        List<GpuSnapshot> gpus,
        NodeClaims claims) {

    /** A snapshot with no claims read. */
    public NodeSnapshot(GpuSource source, String error, NodeInfo info, String driverVersion, String cudaVersion,
                        List<GpuSnapshot> gpus) {
        this(source, error, info, driverVersion, cudaVersion, gpus, NodeClaims.NONE);
    }

    public NodeSnapshot {
        gpus = List.copyOf(gpus);
        claims = claims == null ? NodeClaims.NONE : claims;
    }
}
