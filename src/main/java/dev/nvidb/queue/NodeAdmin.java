package dev.nvidb.queue;

import dev.nvidb.engine.QueueEngine;
import dev.nvidb.store.NodeStore;

/**
 * Node administration: drain (no new placements) and resume, ignore (not probed, not
 * scheduled, hidden) and unignore. Each is a compare-and-set, so it never waits for a tick in
 * progress.
 */
public final class NodeAdmin {

    private final QueueEngine engine;
    private final NodeStore nodes;

    NodeAdmin(QueueEngine engine) {
        this.engine = engine;
        this.nodes = new NodeStore(engine.database());
    }

    /** The queue node a user typed: its exact name, or a unique prefix; a usage error otherwise. */
    public String resolve(String typed) {
        return engine.nodes().resolve(typed);
    }

    /** Stops ({@code true}) or restarts placements on a node; returns whether anything changed. */
    public boolean drain(String typed, boolean drain) {
        String name = resolve(typed);
        return drain ? nodes.drain(name, engine.clock().instant()) : nodes.resume(name, engine.clock().instant());
    }

    /** Stops ({@code true}) or restarts probing and scheduling a node; returns whether anything changed. */
    public boolean ignore(String typed, boolean ignore) {
        String name = resolve(typed);
        return ignore ? nodes.ignore(name, engine.clock().instant()) : nodes.unignore(name, engine.clock().instant());
    }
}
