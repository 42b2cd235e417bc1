package dev.nvidb.scheduler;

/** How the scheduler chooses among GPUs that all fit a job. */
public enum PlacementMode {
    /** The emptiest fitting GPUs first: load is spread over the cards (the default). */
    SPREAD,
    /** The fullest GPUs that still fit first: whole cards stay free for big jobs. */
    PACK
}
