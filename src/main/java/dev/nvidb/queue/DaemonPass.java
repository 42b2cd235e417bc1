package dev.nvidb.queue;

import java.time.Instant;

/**
 * What one daemon pass did.
 *
 * @param startedAt when the pass began
 * @param tick      the scheduler pass, or null when the pass failed before it ended
 * @param error     why the pass failed, or null
 * @param delivery  what alert delivery did, or null when it did not run ({@code --no-notify}, or it failed: see error)
 */
public record DaemonPass(Instant startedAt, TickResult tick, String error, NotifyPass delivery) {

    /** A pass without alert delivery. */
    public DaemonPass(Instant startedAt, TickResult tick, String error) {
        this(startedAt, tick, error, null);
    }

    /** This pass with its delivery's report, and its error when delivery failed as a whole. */
    DaemonPass withNotify(NotifyPass delivered, String failure) {
        return new DaemonPass(startedAt, tick, error != null ? error : failure, delivered);
    }

    /** Every node answered, and no delivery failed. */
    public boolean ok() {
        return error == null && tick != null && tick.failed().isEmpty() && (delivery == null || delivery.failed() == 0);
    }
}
