package dev.nvidb.model;

/**
 * A process holding a GPU context, as the node agent saw it.
 *
 * @param pid     process id on the node
 * @param type    "compute", "graphics" or "compute+graphics"
 * @param memMb   GPU memory it holds in MiB, or null when the driver does not say (blind)
 * @param user    owner's user name (or uid), null when unreadable
 * @param name    short process name, null when unknown
 * @param command full command line, truncated by the agent, null when unreadable
 */
public record GpuProcess(long pid, String type, Long memMb, String user, String name, String command) {
}
