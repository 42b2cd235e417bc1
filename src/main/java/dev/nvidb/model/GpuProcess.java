package dev.nvidb.model;

/**
 * A process holding a GPU context, as the node agent saw it.
 *
 * @param pid              process id on the node
 * @param type             "compute", "graphics" or "compute+graphics"
 * @param memMb            GPU memory it holds in MiB, or null when the driver does not say (blind)
 * @param user             owner's user name (or uid), null when unreadable
 * @param name             short process name, null when unknown
 * @param command          its command line (arguments joined by spaces), at most 4096 characters,
 *                         null when unreadable
 * @param commandTruncated true when the command line was longer and {@code command} is its start;
 *                         null when unknown
 * @param stats            what it costs its host (CPU, memory, age, state, threads); never null,
 *                         {@link ProcessStats#UNKNOWN} when nothing is known
 */
public record GpuProcess(long pid, String type, Long memMb, String user, String name, String command,
                         Boolean commandTruncated, ProcessStats stats) {

    public GpuProcess {
        stats = stats == null ? ProcessStats.UNKNOWN : stats;
    }

    /** A process whose host figures are unknown (the nvidia-smi CSV fallback, tests). */
    public GpuProcess(long pid, String type, Long memMb, String user, String name, String command) {
        this(pid, type, memMb, user, name, command, null, ProcessStats.UNKNOWN);
    }
}
