package dev.nvidb.queue;

import dev.nvidb.config.BackupConfig;
import dev.nvidb.engine.QueueEngine;
import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.error.NvidbException;
import dev.nvidb.model.AlertKind;
import dev.nvidb.store.Alert;
import dev.nvidb.store.AlertStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The daemon's housekeeping after each tick: a backup when {@code queue.backup} says one is due
 * (enabled, and {@code interval_hours} since the last one), and retention when it last ran
 * {@link #RETENTION_EVERY} ago or more. A failure is reported in the result (and a failed
 * backup raises one {@code backup_failed} alert per run of failures since the last good
 * backup) and never stops the daemon; a failed backup is tried again after
 * {@link #BACKUP_RETRY}, not at every pass.
 */
public final class Maintenance {

    /** How often retention runs from the daemon. */
    static final Duration RETENTION_EVERY = Duration.ofHours(1);
    /** How long after a failed backup the daemon tries again. */
    static final Duration BACKUP_RETRY = Duration.ofMinutes(15);

    private final QueueEngine engine;
    private final Backups backups;
    private final Retention retention;
    private Instant backupFailedAt;

    Maintenance(QueueEngine engine) {
        this.engine = engine;
        this.backups = new Backups(engine);
        this.retention = new Retention(engine);
    }

    /** Does what is due now. */
    public MaintenanceResult due() {
        Instant now = engine.clock().instant();
        BackupResult backup = null;
        String backupError = null;
        if (backupDue(now)) {
            try {
                BackupConfig config = engine.settings().queue().backup();
                backup = backups.take(null, config.keep());
                backupFailedAt = null;
            } catch (InterruptedByUser e) {
                throw e;
            } catch (NvidbException | IllegalStateException e) {
                backupFailedAt = now;
                backupError = e.getMessage();
                raiseBackupFailed(backupError, now);
            }
        }
        RetentionResult removed = null;
        String retentionError = null;
        if (!engine.settings().queue().retention().keepsEverything() && retentionDue(now)) {
            try {
                removed = retention.run(false);
            } catch (InterruptedByUser e) {
                throw e;
            } catch (NvidbException | IllegalStateException e) {
                retentionError = e.getMessage();
            }
        }
        return new MaintenanceResult(backup, backupError, removed, retentionError);
    }

    private boolean backupDue(Instant now) {
        BackupConfig config = engine.settings().queue().backup();
        if (!config.enabled()) {
            return false;
        }
        if (backupFailedAt != null && now.isBefore(backupFailedAt.plus(BACKUP_RETRY))) {
            return false;
        }
        Optional<Instant> last = backups.lastBackupAt();
        return last.isEmpty() || !now.isBefore(last.get().plus(Duration.ofHours(config.intervalHours())))
                || last.get().isAfter(now.plus(Duration.ofHours(config.intervalHours())));  // a clock that was ahead
    }

    private boolean retentionDue(Instant now) {
        Optional<Instant> last = retention.lastRunAt();
        return last.isEmpty() || !now.isBefore(last.get().plus(RETENTION_EVERY)) || last.get().isAfter(now.plus(RETENTION_EVERY));
    }

    private void raiseBackupFailed(String why, Instant now) {
        try {
            String since = backups.lastBackupAt().map(at -> Long.toString(at.toEpochMilli())).orElse("never");
            new AlertStore(engine.database()).raise(Alert.raise(now, AlertKind.BACKUP_FAILED.key() + ":" + since,
                    AlertKind.BACKUP_FAILED, "error", null, null, "backup of the queue failed: " + why, null));
        } catch (NvidbException alsoFailing) {
            // The database itself is failing; the pass reports the backup's error.
        }
    }
}
