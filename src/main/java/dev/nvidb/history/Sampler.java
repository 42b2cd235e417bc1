package dev.nvidb.history;

import dev.nvidb.model.ProbeResult;
import dev.nvidb.monitor.Backoff;
import dev.nvidb.node.Node;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@code nvidb log}'s sampling: one thread per node, each probing its node on a fixed schedule
 * (start, start + interval, start + 2 × interval, …) and recording every probe, answered or not,
 * in the {@link GpuLog}. A slow or hung node delays only its own samples: its thread skips the
 * slots it missed instead of bunching them up, and the other nodes keep their schedule. A node
 * that fails is retried on the monitor's back-off ({@link Backoff}: 5 s doubling to 60 s), each
 * failed attempt recorded, and returns to the schedule when it answers.
 */
public final class Sampler implements AutoCloseable {

    /** What the command tells the user about: a node failing or coming back. */
    public record Change(String node, boolean answering, String failure, Instant at) {
    }

    private final GpuLog log;
    private final long sessionId;
    private final Function<Node, ProbeResult> probe;
    private final Duration interval;
    private final Backoff backoff;
    private final Clock clock;
    private final Consumer<Change> changes;
    private final List<Worker> workers = new ArrayList<>();
    private final AtomicLong recorded = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile boolean closed;
    /** Set once stopping is over: a probe that returns later (a hung node) is not recorded. */
    private boolean sealed;
    private final Object recording = new Object();
    private volatile RuntimeException writeFailure;

    /**
     * @param probe   probes one node (blocking, bounded by its own timeout; never throws)
     * @param changes told when a node starts failing or answers again (on the node's thread)
     */
    public Sampler(GpuLog log, long sessionId, List<Node> nodes, Function<Node, ProbeResult> probe, Duration interval,
                   Clock clock, Consumer<Change> changes) {
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("interval must be positive, got " + interval);
        }
        this.log = log;
        this.sessionId = sessionId;
        this.probe = probe;
        this.interval = interval;
        this.backoff = new Backoff(interval);
        this.clock = clock;
        this.changes = changes;
        for (Node node : nodes) {
            workers.add(new Worker(node));
        }
    }

    /** Starts one sampling thread per node (daemon threads). */
    public Sampler start() {
        for (Worker worker : workers) {
            Thread thread = new Thread(worker::run, "log-" + worker.node.name());
            thread.setDaemon(true);
            worker.thread = thread;
            thread.start();
        }
        return this;
    }

    /** Probes recorded so far (answered or not). */
    public long recorded() {
        return recorded.get();
    }

    /** Probes recorded that a node did not answer. */
    public long failed() {
        return failed.get();
    }

    /** The failure that stopped recording (the log could not be written), or null. */
    public RuntimeException writeFailure() {
        return writeFailure;
    }

    /**
     * Stops sampling and waits up to {@code grace} for probes in flight to be recorded; a probe
     * still running after that (a hung node) is abandoned, unrecorded.
     */
    public void stop(Duration grace) {
        closed = true;
        long deadline = System.nanoTime() + grace.toNanos();
        for (Worker worker : workers) {
            worker.wake();
        }
        for (Worker worker : workers) {
            Thread thread = worker.thread;
            if (thread == null) {
                continue;
            }
            long left = deadline - System.nanoTime();
            try {
                thread.join(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        synchronized (recording) {
            sealed = true;
        }
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(2));
    }

    private final class Worker {
        private final Node node;
        private volatile Thread thread;
        private boolean woken;

        Worker(Node node) {
            this.node = node;
        }

        void run() {
            int failures = 0;
            long next = System.nanoTime();
            while (!closed) {
                Instant at = clock.instant();
                ProbeResult result = probe.apply(node);
                if (!recordOrStop(result, at)) {
                    return;
                }
                boolean answered = result.failure() == null && !result.degraded();
                if (answered != (failures == 0)) {
                    changes.accept(new Change(node.name(), answered, answered ? null : failure(result), at));
                }
                failures = answered ? 0 : failures + 1;
                long now = System.nanoTime();
                if (failures > 0) {
                    next = now + backoff.after(failures).toNanos();
                } else {
                    next += interval.toNanos();
                    if (next <= now) {
                        long missed = (now - next) / interval.toNanos() + 1;
                        next += missed * interval.toNanos();
                    }
                }
                pauseUntil(next);
            }
        }

        private boolean recordOrStop(ProbeResult result, Instant at) {
            try {
                synchronized (recording) {
                    if (sealed) {
                        return false;
                    }
                    log.record(sessionId, result, at);
                }
                recorded.incrementAndGet();
                if (result.failure() != null || result.degraded()) {
                    failed.incrementAndGet();
                }
                return true;
            } catch (RuntimeException e) {
                writeFailure = e;
                closed = true;
                for (Worker worker : workers) {
                    worker.wake();
                }
                return false;
            }
        }

        private synchronized void pauseUntil(long deadline) {
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

    private static String failure(ProbeResult result) {
        return result.failure() != null ? result.failure() : result.snapshot().error();
    }
}
