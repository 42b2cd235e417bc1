package dev.nvidb.tui.monitor;

import java.util.List;
import java.util.function.Consumer;

/**
 * Where the monitor screen gets its data and sends its signals. The screen runs on the input
 * thread and must never wait on a node: {@link #nodes()} returns what the probing workers
 * published last, and {@link #signal} returns at once and reports later, from another thread.
 */
public interface MonitorSource {

    /** Every node, in configuration order, as the workers saw it last. */
    List<NodeFeed> nodes();

    /** Changes whenever a probe came back (the screen redraws then). */
    long version();

    /**
     * Sends {@code request} on the node that owns the process, off the caller's thread, and hands
     * the outcome to {@code done} (on any thread). The node is probed again right after.
     */
    void signal(SignalRequest request, Consumer<SignalOutcome> done);
}
