package dev.nvidb.model;

import java.util.List;

/**
 * Facts about a node's host that the agent reports next to its GPUs. Every field may be
 * null when the node could not say (the no-python3 fallback reports none of them).
 * {@code procHidepid} is /proc's {@code hidepid=} option ("0" when absent) and
 * {@code procHidesOthers} whether it hides other users' processes from the agent's user.
 */
public record NodeInfo(
        String hostname,
        String bootId,
        Double clock,
        List<Double> load,
        Integer cpuCount,
        String diskPath,
        Long diskFreeMb,
        String python,
        String procHidepid,
        Boolean procHidesOthers) {

    /** The empty value used when the node reported nothing about itself. */
    public static NodeInfo unknown() {
        return new NodeInfo(null, null, null, null, null, null, null, null, null, null);
    }
}
