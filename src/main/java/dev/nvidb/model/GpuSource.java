package dev.nvidb.model;

/** Where a node's GPU figures came from. */
public enum GpuSource {
    /** libnvidia-ml.so.1 through ctypes: the normal path. */
    NVML,
    /** nvidia-smi CSV queries: NVML could not start, or python3 is missing on the node. */
    NVIDIA_SMI,
    /** Neither worked; the node reported no GPUs and an error. */
    NONE
}
