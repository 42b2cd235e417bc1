package dev.nvidb.output;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.queue.JobView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The states of waited-for jobs as {@code job wait} and {@code job submit --wait} show them on
 * a terminal, redrawn in place on stderr as they change: one line per job, cut to the width so
 * no line wraps (a wrapped line would break the redraw). Pure.
 */
public final class WaitText {

    /** Moves the cursor to the start of the line {@code n} lines up: ESC [ n F. */
    private static final String UP = "\u001b[%dF";
    /** Clears the whole line the cursor is on. */
    private static final String CLEAR_LINE = "\u001b[2K";
    /** Clears from the cursor to the end of the screen. */
    private static final String CLEAR_BELOW = "\u001b[J";

    private WaitText() {
    }

    /** One line per job, at most {@code width - 1} characters: id, state, and where or why. */
    public static List<String> lines(List<JobView> jobs, int width, Instant now) {
        List<String> lines = new ArrayList<>();
        for (JobView view : jobs) {
            lines.add(Units.fit(Printable.of(line(view, now)), Math.max(1, width - 1)));
        }
        return lines;
    }

    private static String line(JobView view, Instant now) {
        Job job = view.job();
        String state = job.held() ? "held" : view.unverifiedSince() != null ? "running?" : job.state().key();
        String info;
        if (job.held()) {
            info = job.holdReason();
        } else if (job.state() == JobState.RUNNING && view.unverifiedSince() == null) {
            info = "on " + job.assignment().node() + " for " + JobText.ago(job.startedAt(), now)
                    + (job.progress() == null ? "" : " · " + job.progress());
        } else {
            info = JobText.info(job, view.pendingReason(), view.unverifiedSince(), now);
        }
        return "job " + view.id() + " " + state + (info == null || info.isEmpty() ? "" : ": " + info);
    }

    /**
     * What to write to replace a frame of {@code previous} lines (0: none yet) with
     * {@code lines}: the cursor goes back up, every line is cleared and rewritten, and what is
     * left of a longer previous frame is cleared.
     */
    public static String frame(int previous, List<String> lines) {
        StringBuilder out = new StringBuilder();
        if (previous > 0) {
            out.append(String.format(UP, previous));
        }
        for (String line : lines) {
            out.append(CLEAR_LINE).append(line).append('\n');
        }
        out.append(CLEAR_BELOW);
        return out.toString();
    }

    /** What to write to erase a frame of {@code previous} lines, leaving the cursor where it began. */
    public static String erase(int previous) {
        return previous > 0 ? String.format(UP, previous) + CLEAR_BELOW : "";
    }

    /**
     * What a wait answers in text: a line per job ({@code 12 failed exit 1}, {@code 13 pending: no room}),
     * then the last {@code logLines} lines of stdout of each job in {@code logs}.
     */
    public static String ended(List<JobView> jobs, java.util.Map<Long, String> logs, int logLines) {
        StringBuilder text = new StringBuilder();
        for (JobView job : jobs) {
            String how = job.job().exitCode() != null ? " exit " + job.job().exitCode()
                    : job.job().lastError() != null && job.job().state().endedBadly() ? ": " + job.job().lastError()
                    : job.pendingReason() != null ? ": " + job.pendingReason() : "";
            text.append(job.id()).append(' ').append(job.job().state().key()).append(Printable.of(how)).append('\n');
        }
        logs.forEach((id, log) -> {
            text.append("--- job ").append(id).append(": last ").append(logLines).append(" lines of stdout ---\n");
            String shown = Printable.lines(log);
            text.append(shown.isEmpty() || shown.endsWith("\n") ? shown : shown + "\n");
        });
        return text.toString();
    }

    /** Redraws the waited-for jobs' states in place on {@code err} while {@code drawing}; does nothing otherwise. */
    public static final class Progress implements java.util.function.Consumer<List<JobView>> {

        private final java.io.PrintWriter err;
        private final java.util.function.IntSupplier width;
        private final boolean drawing;
        private List<String> shown = List.of();

        public Progress(java.io.PrintWriter err, java.util.function.IntSupplier width, boolean drawing) {
            this.err = err;
            this.width = width;
            this.drawing = drawing;
        }

        @Override
        public void accept(List<JobView> jobs) {
            if (!drawing) {
                return;
            }
            List<String> lines = WaitText.lines(jobs, width.getAsInt(), Instant.now());
            if (!lines.equals(shown)) {
                err.print(WaitText.frame(shown.size(), lines));
                err.flush();
                shown = lines;
            }
        }

        /** Takes the drawn lines away, so what is printed next starts where they began. */
        public void erase() {
            if (!shown.isEmpty()) {
                err.print(WaitText.erase(shown.size()));
                err.flush();
                shown = List.of();
            }
        }
    }
}
