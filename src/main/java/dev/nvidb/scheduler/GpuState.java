package dev.nvidb.scheduler;

/** How much the probe established about one GPU this tick. */
public enum GpuState {
    /** Total and used memory are known, and so is every process's share (the normal case). */
    MEASURED,
    /**
     * Total and used memory are known, but the driver does not say which process holds what
     * (WSL, some consumer cards): the queue's jobs are credited up to their reservations and
     * the rest of the used memory is treated as foreign.
     */
    BLIND,
    /** The probe could not establish this GPU's state: never a placement target. */
    UNKNOWN;

    /** True when the GPU's memory state is known well enough to place on it. */
    public boolean known() {
        return this != UNKNOWN;
    }
}
