package dev.nvidb.monitor;

import dev.nvidb.model.ProbeResult;
import dev.nvidb.node.Node;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The live monitor's probing: one worker thread per node, each probing its node, publishing the
 * result and pausing (the interval, or a back-off after failures), so a hung or dead node never
 * holds up the others and nothing ever waits on the screen's thread. The probe itself goes
 * through the node's resident agent where one runs (see {@code Prober}), so a node costs one
 * open channel, not an exec per probe.
 */
public final class LiveProbes implements AutoCloseable {

    /**
     * One node as last seen: where it is (null until its worker looked it up, off the caller's
     * thread), its latest result (null before the first), a count, the next retry.
     */
    public record NodeState(Node node, String address, ProbeResult latest, long sequence, Instant retryAt) {
    }

    private final List<Worker> workers = new ArrayList<>();
    private final AtomicLong version = new AtomicLong();
    private final Function<Node, ProbeResult> probe;
    private final Backoff backoff;
    private final Clock clock;
    private volatile boolean closed;

    /**
     * @param nodes   the nodes, in display order
     * @param probe   probes one node (blocking, bounded by its own timeout; never throws)
     * @param backoff the pauses between probes
     * @param clock   for the retry times shown
     */
    public LiveProbes(List<Node> nodes, Function<Node, ProbeResult> probe, Backoff backoff, Clock clock) {
        this.probe = probe;
        this.backoff = backoff;
        this.clock = clock;
        for (Node node : nodes) {
            workers.add(new Worker(node));
        }
    }

    /** Starts the workers (daemon threads: they never keep the JVM alive). */
    public LiveProbes start() {
        for (Worker worker : workers) {
            Thread thread = new Thread(worker::run, "monitor-" + worker.node.name());
            thread.setDaemon(true);
            worker.thread = thread;
            thread.start();
        }
        return this;
    }

    /** Every node's latest state, in display order. */
    public List<NodeState> nodes() {
        List<NodeState> states = new ArrayList<>();
        for (Worker worker : workers) {
            states.add(worker.state);
        }
        return states;
    }

    /** Grows with every published probe. */
    public long version() {
        return version.get();
    }

    /** Probes {@code node} again now (after a signal, to show its effect at once). */
    public void probeSoon(String node) {
        for (Worker worker : workers) {
            if (worker.node.name().equals(node)) {
                worker.wake();
            }
        }
    }

    /** The node called {@code name}, if it is one of these. */
    public java.util.Optional<Node> node(String name) {
        return workers.stream().map(worker -> worker.node).filter(node -> node.name().equals(name)).findFirst();
    }

    @Override
    public void close() {
        closed = true;
        for (Worker worker : workers) {
            worker.wake();
            if (worker.thread != null) {
                worker.thread.interrupt();
            }
        }
    }

    private final class Worker {
        private final Node node;
        private volatile NodeState state;
        private volatile Thread thread;
        private boolean woken;
        private int failures;

        Worker(Node node) {
            this.node = node;
            this.state = new NodeState(node, null, null, 0, null);
        }

        void run() {
            String address = node.address();
            state = new NodeState(node, address, null, 0, null);
            version.incrementAndGet();
            while (!closed) {
                ProbeResult result = probe.apply(node);
                if (closed) {
                    return;
                }
                failures = result.snapshot() == null ? failures + 1 : 0;
                Duration pause = backoff.after(failures);
                Instant retry = failures > 0 ? clock.instant().plus(pause) : null;
                state = new NodeState(node, address, result, state.sequence() + 1, retry);
                version.incrementAndGet();
                pause(pause);
            }
        }

        private synchronized void pause(Duration pause) {
            long deadline = System.nanoTime() + pause.toNanos();
            while (!woken && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
            woken = false;
        }

        synchronized void wake() {
            woken = true;
            notifyAll();
        }
    }
}
