package dev.nvidb.model;

import java.time.Duration;
import java.util.Optional;

/**
 * The outcome of probing one node: either a snapshot or the reason there is none
 * (unreachable, timed out, untrusted host key, agent failure). Never both.
 */
public record ProbeResult(String node, String address, NodeSnapshot snapshot, String failure, Duration elapsed) {

    public ProbeResult {
        if ((snapshot == null) == (failure == null)) {
            throw new IllegalArgumentException("a probe result has either a snapshot or a failure");
        }
    }

    public static ProbeResult answered(String node, String address, NodeSnapshot snapshot, Duration elapsed) {
        return new ProbeResult(node, address, snapshot, null, elapsed);
    }

    public static ProbeResult failed(String node, String address, String failure, Duration elapsed) {
        return new ProbeResult(node, address, null, failure, elapsed);
    }

    public Optional<NodeSnapshot> findSnapshot() {
        return Optional.ofNullable(snapshot);
    }

    /** True when the node answered but reported a node-level problem, such as no NVIDIA driver. */
    public boolean degraded() {
        return snapshot != null && snapshot.error() != null && snapshot.gpus().isEmpty();
    }
}
