package dev.nvidb.queue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A backup made and published.
 *
 * @param file    the published copy (mode 0600)
 * @param bytes   its size
 * @param at      when it was made (recorded as {@code last_backup_at})
 * @param removed older backups deleted by rotation ({@code --keep}, {@code queue.backup.keep})
 */
public record BackupResult(Path file, long bytes, Instant at, List<Path> removed) {

    public BackupResult {
        removed = List.copyOf(removed);
    }
}
