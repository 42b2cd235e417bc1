package dev.nvidb.model;

/**
 * What a GPU process costs its host, read by the node agent from {@code /proc}. Every field
 * is nullable: null means the process was gone or unreadable (or an older agent answered),
 * which is different from zero.
 *
 * @param cpuPercent     CPU time per wall-clock time × 100 over the agent's window: 100 is one
 *                       busy core, a multi-threaded process may exceed it (top's %CPU)
 * @param hostMemPercent resident memory as a percentage of the host's total memory
 * @param rssBytes       resident memory in bytes
 * @param elapsedSeconds whole seconds since the process started
 * @param state          the kernel's state letter: R running, S sleeping, D disk wait, T stopped, Z zombie, …
 * @param threads        number of threads
 */
public record ProcessStats(
        Double cpuPercent,
        Double hostMemPercent,
        Long rssBytes,
        Long elapsedSeconds,
        String state,
        Integer threads) {

    /** Nothing known about the process on its host. */
    public static final ProcessStats UNKNOWN = new ProcessStats(null, null, null, null, null, null);
}
