package dev.nvidb.store;

/**
 * A process on a node, identified beyond its bare pid: a pid is only trusted together with its
 * start time and the node's boot id (DESIGN.md invariant 3); signals go to the process group.
 *
 * @param pid       process id
 * @param pgid      process group id (what TERM and KILL are sent to)
 * @param startTime the process's start time as the agent reports it (Linux: clock ticks since boot), or null
 * @param bootId    the node's boot id when the process was seen, or null
 */
public record ProcessIdentity(long pid, long pgid, Long startTime, String bootId) {
}
