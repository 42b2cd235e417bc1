package dev.nvidb.agent;

import java.time.Instant;

/**
 * Who a launched job's wrapper is on its node: the identity recorded at launch and checked
 * before any signal. A pid alone is never trusted (pids are reused): the process start time
 * in clock ticks and the node's boot id must match too.
 *
 * @param pid        the wrapper's pid (a session and process-group leader)
 * @param pgid       its process group, normally equal to {@code pid}
 * @param startTicks field 22 of {@code /proc/PID/stat}: start time in clock ticks since boot
 * @param bootId     the node's boot id at launch, or null when the node has none
 * @param startedAt  the node's clock at launch, or null when unknown (an adopted orphan)
 */
public record WrapperProcess(long pid, long pgid, long startTicks, String bootId, Instant startedAt) {
}
