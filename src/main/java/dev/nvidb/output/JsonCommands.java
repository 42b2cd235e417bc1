package dev.nvidb.output;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.nvidb.queue.JobChange;
import dev.nvidb.queue.NotifyPass;
import java.util.List;
import java.util.Map;

/**
 * The documents of the commands that print a small answer of their own (the job, queue
 * and monitor documents have their own view classes). Each has {@code schema_version} and
 * {@code ok} first; docs/json.md describes every field.
 */
public final class JsonCommands {

    private JsonCommands() {
    }

    /** {@code nvidb add --json}: the name the new server goes by. */
    public record Added(int schemaVersion, boolean ok, String name) {
    }

    /** {@code nvidb import --json}: which hosts were added and which were already there. */
    public record Imported(int schemaVersion, boolean ok, String source, List<String> imported, List<String> skipped) {
    }

    /** {@code job cancel|requeue --json}: one entry per job. */
    public record JobsChanged(int schemaVersion, boolean ok, List<JobChange> jobs) {
    }

    /** {@code job logs --json}: the text read and the offset to continue from. */
    public record Logs(int schemaVersion, boolean ok, long id, String stream, String text, long nextOffset) {
    }

    /** {@code job note --json}: the note after the change. */
    public record Noted(int schemaVersion, boolean ok, long id, String notes) {
    }

    /** {@code job priority --json}: the priority after the change. */
    public record Priority(int schemaVersion, boolean ok, long id, int priority) {
    }

    /** {@code job purge --json}: which ids were forgotten. */
    public record Purged(int schemaVersion, boolean ok, List<Long> purged) {
    }

    /** {@code job result --json}: the result document (null when there is none). */
    public record Result(int schemaVersion, boolean ok, long id, Object result) {
    }

    /** {@code job wait --json}: the jobs as they ended (or stand, after a timeout); {@code logs} with {@code --logs}. */
    public record Waited(int schemaVersion, boolean ok, boolean timedOut, List<JsonJob> jobs, Map<Long, String> logs) {

        /** The answer of {@code job wait --json} and MCP's {@code wait}: {@code logs} only when lines were asked for. */
        public static Waited of(dev.nvidb.queue.Waiting.Outcome outcome, Map<Long, String> logs, int logLines) {
            return new Waited(Json.SCHEMA_VERSION, outcome.allCompleted(), outcome.timedOut(),
                    outcome.jobs().stream().map(JsonJob::of).toList(), logLines > 0 ? logs : null);
        }
    }

    /** {@code queue drain|resume|ignore|unignore --json}: the node, what was done, whether it changed anything. */
    public record NodeChanged(int schemaVersion, boolean ok, String node, String action, boolean changed) {
    }

    /** {@code queue tick --json}: what the pass did. */
    public record Ticked(int schemaVersion, boolean ok, boolean ran, List<String> answered, List<String> failed,
                         List<String> skipped, List<Long> settled, List<Long> placed, long durationMs) {
    }

    /**
     * {@code nvidb queue daemon --json}: one pass, one line.
     *
     * @param startedAt when the pass began, in seconds since the epoch
     * @param error     why the pass failed, or null
     * @param tick      its scheduler pass, or null when the pass failed first
     * @param delivery  its alert delivery ({@code notify}), or null with {@code --no-notify} or when it failed
     * @param maintenance the backup and retention it did when due
     */
    public record DaemonPassed(int schemaVersion, boolean ok, java.math.BigDecimal startedAt, String error,
                               Ticked tick, @JsonProperty("notify") DaemonNotify delivery, Maintained maintenance) {

        public static DaemonPassed of(boolean ok, java.time.Instant startedAt, String error, Ticked tick) {
            return of(ok, startedAt, error, tick, null);
        }

        public static DaemonPassed of(boolean ok, java.time.Instant startedAt, String error, Ticked tick,
                                      dev.nvidb.queue.MaintenanceResult maintenance) {
            return new DaemonPassed(Json.SCHEMA_VERSION, ok, JsonJob.seconds(startedAt), error, tick, null,
                    Maintained.of(maintenance));
        }

        /** This document with the pass's alert delivery. */
        public DaemonPassed with(NotifyPass pass) {
            return pass == null ? this : new DaemonPassed(schemaVersion, ok, startedAt, error, tick, new DaemonNotify(
                    pass.channels().stream().map(channel -> new Delivered(channel.channel(), channel.delivered(),
                            channel.notOwed(), channel.backlog(), channel.failed(), channel.error(), channel.owed(),
                            JsonJob.seconds(channel.nextAttemptAt()))).toList()), maintenance);
        }
    }

    /**
     * A daemon pass's housekeeping: the backup made ({@code backup}, null when none was due),
     * why a due one failed, what retention removed (null when not due) and why it failed.
     */
    public record Maintained(BackedUp backup, String backupError, Collected retention, String retentionError) {

        static Maintained of(dev.nvidb.queue.MaintenanceResult result) {
            if (result == null) {
                return new Maintained(null, null, null, null);
            }
            return new Maintained(result.backup() == null ? null : BackedUp.of(result.backup()), result.backupError(),
                    result.retention() == null ? null : Collected.of(result.retention()), result.retentionError());
        }
    }

    /** {@code queue backup --json}: the file written, its size, its time and the old backups rotation deleted. */
    public record BackedUp(int schemaVersion, boolean ok, String file, long bytes, java.math.BigDecimal at,
                           List<String> removed) {

        public static BackedUp of(dev.nvidb.queue.BackupResult result) {
            return new BackedUp(Json.SCHEMA_VERSION, true, result.file().toString(), result.bytes(),
                    JsonJob.seconds(result.at()), result.removed().stream().map(Object::toString).toList());
        }
    }

    /**
     * {@code queue gc --json}: what retention removed (with {@code dry_run}, what it would
     * remove from the database, and how many job directories are due).
     */
    public record Collected(int schemaVersion, boolean ok, boolean dryRun, List<Long> jobs, int events, int alerts,
                            int jobDirs, List<String> problems) {

        public static Collected of(dev.nvidb.queue.RetentionResult result) {
            return new Collected(Json.SCHEMA_VERSION, result.problems().isEmpty(), result.dryRun(), result.jobs(),
                    result.events(), result.alerts(), result.jobDirs(), result.problems());
        }
    }

    /** A daemon pass's alert delivery: one entry per channel on, in delivery order. */
    public record DaemonNotify(List<Delivered> channels) {
    }

    /** One channel in one daemon pass (docs/json.md, {@code queue daemon --json}). */
    public record Delivered(String channel, int delivered, int notOwed, long backlog, int failed, String error,
                            long owed, java.math.BigDecimal nextAttemptAt) {
    }

    /** {@code nvidb trust --json}: the key seen and whether it was recorded. */
    public record Trusted(int schemaVersion, boolean ok, String node, String address, String keyType,
                          String fingerprint, String status, boolean recorded) {
    }

    /** {@code queue ack --json}: how many alerts were acknowledged. */
    public record Acknowledged(int schemaVersion, boolean ok, int acknowledged) {
    }

    /** {@code queue alerts --json}: the open alerts. */
    public record Alerts(int schemaVersion, boolean ok, int openAlerts, List<JsonQueue.JsonAlert> alerts) {
    }
}
