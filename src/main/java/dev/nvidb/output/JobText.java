package dev.nvidb.output;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Plain-text renderings of jobs: the {@code job ls} table (fits 80 columns: the last column,
 * what is happening, is cut to the width) and the {@code job show} detail block. Pure.
 */
public final class JobText {

    private static final String HEADER = String.format(Locale.ROOT, "%5s %-12s %-9s %-9s %4s %6s %3s  %s",
            "ID", "NAME", "STATE", "NODE", "GPUS", "VRAM", "PRI", "INFO");

    private JobText() {
    }

    /** Where the STATE column starts and ends in a row (after "%5d %-12s "). */
    private static final int STATE_FROM = 19;
    private static final int STATE_TO = STATE_FROM + 9;

    /** One row per job, after a header; {@code info} gives what the INFO column says for a job. */
    public static String table(List<Row> rows, int width) {
        return table(rows, width, TextStyle.PLAIN);
    }

    /** As {@link #table(List, int)}, the STATE column painted by {@code style}. */
    public static String table(List<Row> rows, int width, TextStyle style) {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        for (Row row : rows) {
            Job job = row.job();
            String node = Printable.of(job.assignment() == null
                    ? (job.spec().node() == null ? "-" : "(" + job.spec().node() + ")") : job.assignment().node());
            String gpus = String.valueOf(job.spec().gpus());
            String line = String.format(Locale.ROOT, "%5d %-12s %-9s %-9s %4s %6s %3d  %s", job.id(),
                    Units.fit(Printable.of(job.spec().name()), 12), state(row), Units.fit(node, 9), Units.fit(gpus, 4),
                    job.spec().vramMb() == 0 ? "-" : Units.mebibytes(job.spec().vramMb()), job.priority(),
                    row.info() == null ? "" : Printable.of(row.info()));
            out.append(style.stateAt(Units.fit(line, width), STATE_FROM, STATE_TO, state(row))).append('\n');
        }
        return out.toString();
    }

    /** A job row and what its INFO column says (pending reason, progress, error). */
    public record Row(Job job, String info, boolean unverified) {
    }

    private static String state(Row row) {
        if (row.job().held()) {
            return "held";
        }
        return row.unverified() ? "running?" : row.job().state().key();
    }

    /** What a job's INFO column says: why it waits, how far it got, or how it ended. */
    public static String info(Job job, String pendingReason, Instant unverifiedSince, Instant now) {
        if (job.status() instanceof JobStatus.Pending pending) {
            return pending.held() ? "held: " + pending.holdReason() : pendingReason;
        }
        if (unverifiedSince != null) {
            return "unverified: node not answering since " + ago(unverifiedSince, now);
        }
        String said = job.status() instanceof JobStatus.Running running ? "running " + ago(running.startedAt(), now)
                : job.exitCode() != null ? "exit " + job.exitCode() + (job.failureClass() == null
                        || job.failureClass() == dev.nvidb.model.FailureClass.EXIT_CODE ? ""
                        : " (" + job.failureClass().key() + ")")
                : job.lastError();
        return job.progress() == null ? said : said + " · " + job.progress();
    }

    /** "42s", "5m", "3h", "2d": how long ago, roughly. */
    public static String ago(Instant then, Instant now) {
        if (then == null) {
            return "-";
        }
        long seconds = Math.max(0, Duration.between(then, now).getSeconds());
        if (seconds < 120) {
            return seconds + "s";
        }
        if (seconds < 7200) {
            return seconds / 60 + "m";
        }
        return seconds < 172800 ? seconds / 3600 + "h" : seconds / 86400 + "d";
    }

    /** A submit's line on stderr: {@code submitted job 12 (train), pending: no room}. */
    public static String submitted(dev.nvidb.queue.JobView view) {
        String where = switch (view.job().state()) {
            case PENDING -> "pending: " + Printable.of(view.pendingReason());
            case RUNNING -> "running on " + Printable.of(view.job().assignment().node());
            default -> view.job().state().key() + (view.job().lastError() == null ? "" : ": "
                    + Printable.of(view.job().lastError()));
        };
        return "submitted job " + view.id() + " (" + Printable.of(view.job().spec().name()) + "), " + where;
    }

    /** Why a submit stored nothing: the job holding its key, or the job this operation submitted before. */
    public static String existing(dev.nvidb.queue.Submitted.Cell cell) {
        return cell.key() != null ? "job " + cell.id() + " already has key " + Printable.of(cell.key()) + " ("
                + cell.existingState() + "); nothing submitted"
                : "job " + cell.id() + " was submitted by this operation before (" + cell.existingState() + ")";
    }

    /** An array's submit on stderr: how many cells were stored, in which group, how many existed. */
    public static String submitted(dev.nvidb.queue.Submitted submitted) {
        int cells = submitted.cells().size();
        long existing = cells - submitted.created();
        return "submitted " + submitted.created() + " of " + cells + " jobs"
                + (submitted.group() == null ? "" : " in group " + Printable.of(submitted.group()))
                + (existing == 0 ? "" : "; " + existing + " already existed (their key is held by a pending, running"
                + " or completed job)");
    }
}
