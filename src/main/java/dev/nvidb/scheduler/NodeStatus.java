package dev.nvidb.scheduler;

/** Whether a node answered this tick, and what is known about its GPUs. */
public enum NodeStatus {
    /** The node answered this tick; its GPU list is this tick's. */
    ANSWERED,
    /**
     * The node did not answer this tick. It contributes no capacity; its GPU list is the last
     * known inventory (indices and totals), used only to decide whether a job could ever run.
     */
    NOT_ANSWERING,
    /** The node has never answered, so nothing is known about its GPUs (its GPU list is empty). */
    NEVER_ANSWERED
}
