package dev.nvidb.queue;

import java.time.Instant;

/**
 * What one daemon pass did.
 *
 * @param startedAt when the pass began
 * @param tick      the scheduler pass, or null when the pass failed before it ended
 * @param error     why the pass failed, or null
 */
public record DaemonPass(Instant startedAt, TickResult tick, String error) {

    public boolean ok() {
        return error == null && tick != null && tick.failed().isEmpty();
    }
}
