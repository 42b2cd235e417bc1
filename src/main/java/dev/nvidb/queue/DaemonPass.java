package dev.nvidb.queue;

import java.time.Instant;

/**
 * What one daemon pass did.
 *
 * @param startedAt   when the pass began
 * @param tick        the scheduler pass, or null when the pass failed before it ended
 * @param error       why the pass failed, or null
 * @param delivery    what alert delivery did, or null when it did not run ({@code --no-notify}, or it failed: see error)
 * @param maintenance the backup and retention the pass did when due (see {@link Maintenance})
 */
public record DaemonPass(Instant startedAt, TickResult tick, String error, NotifyPass delivery,
                         MaintenanceResult maintenance) {

    public DaemonPass {
        maintenance = maintenance == null ? MaintenanceResult.nothing() : maintenance;
    }

    /** A pass without alert delivery or maintenance. */
    public DaemonPass(Instant startedAt, TickResult tick, String error) {
        this(startedAt, tick, error, null, null);
    }

    /** This pass with its delivery's report, and its error when delivery failed as a whole. */
    DaemonPass withNotify(NotifyPass delivered, String failure) {
        return new DaemonPass(startedAt, tick, error != null ? error : failure, delivered, maintenance);
    }

    /** This pass with the maintenance it did. */
    DaemonPass withMaintenance(MaintenanceResult done) {
        return new DaemonPass(startedAt, tick, error, delivery, done);
    }

    /** Every node answered, no delivery failed, and the maintenance due succeeded. */
    public boolean ok() {
        return error == null && tick != null && tick.failed().isEmpty() && (delivery == null || delivery.failed() == 0)
                && maintenance.ok();
    }
}
