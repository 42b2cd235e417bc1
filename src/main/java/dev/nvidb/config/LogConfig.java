package dev.nvidb.config;

import java.nio.file.Path;

/**
 * The {@code log:} section of {@code config.yml}: how {@code nvidb log} samples and how long its
 * history is kept.
 *
 * @param intervalSeconds seconds between two samples of a node ({@code --interval} overrides)
 * @param retentionDays   samples older than this many days are removed while logging; 0 keeps them forever
 * @param dbPath          the GPU log ({@code --db-path} overrides); default {@code $NVIDB_HOME/gpu_log.db}
 */
public record LogConfig(int intervalSeconds, int retentionDays, Path dbPath) {

    /** The default sampling interval, in seconds. */
    public static final int DEFAULT_INTERVAL = 5;
    /** The default retention, in days. */
    public static final int DEFAULT_RETENTION_DAYS = 30;

    public static LogConfig defaults(NvidbHome home) {
        return new LogConfig(DEFAULT_INTERVAL, DEFAULT_RETENTION_DAYS, home.gpuLogDb());
    }
}
