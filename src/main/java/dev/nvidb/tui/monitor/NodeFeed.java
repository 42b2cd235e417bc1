package dev.nvidb.tui.monitor;

import dev.nvidb.model.ProbeResult;
import java.time.Instant;

/**
 * What the monitor knows about one node right now: its latest probe (null until the first one
 * came back), a sequence number that grows with every probe (so history records each probe
 * once), and when a node that failed will be tried again.
 *
 * @param name     the node's configured name
 * @param address  where it is, for display
 * @param latest   the latest probe, or null while the first one is under way
 * @param sequence how many probes came back so far
 * @param retryAt  when a failed node is probed next (back-off), or null while it answers
 */
public record NodeFeed(String name, String address, ProbeResult latest, long sequence, Instant retryAt) {

    /** A node that answered with GPU data (possibly none). */
    public boolean answered() {
        return latest != null && latest.snapshot() != null;
    }

    /** A node that answered but has no usable NVIDIA driver or no GPUs at all. */
    public boolean withoutGpus() {
        return answered() && latest.snapshot().gpus().isEmpty();
    }

    /** A node whose latest probe failed. */
    public boolean down() {
        return latest != null && latest.snapshot() == null;
    }
}
