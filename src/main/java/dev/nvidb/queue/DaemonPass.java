package dev.nvidb.queue;

import java.time.Instant;

/**
 * What one daemon pass did.
 *
 * @param startedAt when the pass began
 * @param tick      the scheduler pass, or null when the pass failed before it ended
 * @param error     why the pass failed, or null
 * @param maintenance the backup and retention the pass did when due (see {@link Maintenance})
 */
public record DaemonPass(Instant startedAt, TickResult tick, String error, MaintenanceResult maintenance) {

    public DaemonPass {
        maintenance = maintenance == null ? MaintenanceResult.nothing() : maintenance;
    }

    /** A pass without maintenance. */
    public DaemonPass(Instant startedAt, TickResult tick, String error) {
        this(startedAt, tick, error, null);
    }

    public boolean ok() {
        return error == null && tick != null && tick.failed().isEmpty() && maintenance.ok();
    }
}
