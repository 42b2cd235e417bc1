package dev.nvidb.config;

import java.nio.file.Path;

/**
 * The {@code queue.backup:} section: periodic online backups of {@code queue.db} by the daemon.
 *
 * @param enabled       the daemon takes backups
 * @param intervalHours hours between backups
 * @param keep          how many backups to keep; older ones are deleted
 * @param directory     where backups go, {@code ~} expanded; null means {@code $NVIDB_HOME/backups}
 */
public record BackupConfig(boolean enabled, int intervalHours, int keep, Path directory) {

    public static BackupConfig defaults() {
        return new BackupConfig(false, 24, 7, null);
    }
}
