package dev.nvidb.tui.monitor;

import dev.nvidb.model.GpuSnapshot;

/**
 * One GPU as the screens list it: the node it is on and its latest snapshot.
 *
 * @param node the node's feed
 * @param gpu  the GPU
 */
public record GpuRow(NodeFeed node, GpuSnapshot gpu) {

    /** Stable across probes: the selection follows the GPU, not its position. */
    public String key() {
        return key(node.name(), gpu.index());
    }

    static String key(String node, int index) {
        return node + "#" + index;
    }
}
