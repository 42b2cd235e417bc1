package dev.nvidb.queue;

/**
 * What a daemon pass's maintenance did: a backup when one was due, retention when it was due
 * (about once an hour). Each part is null when it was not due; an error is one sentence.
 *
 * @param backup         the backup made, or null
 * @param backupError    why a due backup failed, or null
 * @param retention      what retention removed, or null
 * @param retentionError why retention failed, or null
 */
public record MaintenanceResult(BackupResult backup, String backupError, RetentionResult retention,
                                String retentionError) {

    /** Nothing was due. */
    public static MaintenanceResult nothing() {
        return new MaintenanceResult(null, null, null, null);
    }

    public boolean ok() {
        return backupError == null && retentionError == null;
    }

    /** True when something ran (or failed). */
    public boolean didSomething() {
        return backup != null || backupError != null || retention != null || retentionError != null;
    }
}
