package dev.nvidb.model;

import java.util.List;

/**
 * Where one attempt of a job was placed. It is committed to the database before the launch,
 * and the launch on the node is idempotent on {@code launchToken}: a retried launch adopts
 * the process the token already started instead of starting a second one.
 *
 * @param node        the node
 * @param gpuIds      NVML indices of the GPUs given to the job (empty for CPU-only jobs)
 * @param gpuUuids    the same GPUs by UUID (what the job's CUDA_VISIBLE_DEVICES is checked against)
 * @param attempt     1 for the first run, +1 for each retry or requeue
 * @param launchToken unique per attempt; names the attempt's directory on the node
 */
public record Assignment(String node, List<Integer> gpuIds, List<String> gpuUuids, int attempt, String launchToken) {

    public Assignment {
        gpuIds = List.copyOf(gpuIds);
        gpuUuids = List.copyOf(gpuUuids);
    }
}
