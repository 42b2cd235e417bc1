package dev.nvidb.scheduler;

import java.util.List;
import java.util.Objects;

/**
 * The scheduler's decision to start one pending job now. The engine turns it into an
 * {@code Assignment} (adding the attempt and launch token) and commits it before launching.
 *
 * @param jobId      the job
 * @param node       the node it runs on
 * @param gpuIndices NVML indices of its GPUs, ascending (empty for a CPU-only job)
 * @param gpuUuids   the same GPUs by UUID, in the same order
 */
public record Placement(long jobId, String node, List<Integer> gpuIndices, List<String> gpuUuids) {

    public Placement {
        Objects.requireNonNull(node, "node");
        gpuIndices = List.copyOf(gpuIndices);
        gpuUuids = List.copyOf(gpuUuids);
        if (gpuIndices.size() != gpuUuids.size()) {
            throw new IllegalArgumentException("job " + jobId + ": one UUID per GPU index");
        }
    }
}
