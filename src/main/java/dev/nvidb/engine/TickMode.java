package dev.nvidb.engine;

/** Whether a command's tick may be skipped because another ran moments ago. */
public enum TickMode {
    /** Tick unless the last one is younger than {@code tick_min_interval}. */
    IF_DUE,
    /** Tick now (but still never two at once: the lease decides). */
    FORCE
}
