package dev.nvidb.cli;

import dev.nvidb.output.Printable;
import dev.nvidb.model.JobState;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.output.WaitText;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.Waiting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The CLI side of waiting for jobs ({@link Waiting} is the loop): on a terminal the jobs'
 * states are redrawn in place on stderr while waiting and erased at the end; otherwise (no
 * terminal, or stderr sent to a file) nothing is printed until the report. Exit code: 0 all completed, 1 any ended badly, 2 the wait timed
 * out with a job still pending or running.
 */
final class JobWaiting {

    private JobWaiting() {
    }

    static int await(Context context, Queue queue, QueueOptions options, List<Long> ids, Long timeoutSeconds,
                     int logLines) {
        Progress progress = new Progress(context);
        Waiting.Outcome outcome;
        try {
            outcome = queue.waiting().await(ids, timeoutSeconds == null ? null : Duration.ofSeconds(timeoutSeconds),
                    !options.noTick, progress);
        } finally {
            progress.erase();
        }
        return report(context, queue, options, outcome.jobs(), outcome.timedOut(), logLines);
    }

    /** Redraws the jobs' states on a terminal's stderr; does nothing elsewhere. */
    private static final class Progress implements Consumer<List<JobView>> {

        private final Context context;
        private final boolean drawing;
        private List<String> shown = List.of();

        Progress(Context context) {
            this.context = context;
            this.drawing = context.terminal() && !stderrIsAFile();
        }

        @Override
        public void accept(List<JobView> jobs) {
            if (!drawing) {
                return;
            }
            List<String> lines = WaitText.lines(jobs, Terminal.width(context), Instant.now());
            if (!lines.equals(shown)) {
                context.err().print(WaitText.frame(shown.size(), lines));
                context.err().flush();
                shown = lines;
            }
        }

        /**
         * Whether this process's stderr was sent to a file ({@code 2>wait.log}) while stdin and
         * stdout are a terminal: then nothing is drawn. Linux only; elsewhere the terminal
         * check alone decides.
         */
        private static boolean stderrIsAFile() {
            return Files.isRegularFile(Path.of("/proc/self/fd/2"));
        }

        void erase() {
            if (!shown.isEmpty()) {
                context.err().print(WaitText.erase(shown.size()));
                context.err().flush();
                shown = List.of();
            }
        }
    }

    private static int report(Context context, Queue queue, QueueOptions options, List<JobView> jobs,
                              boolean timedOut, int logLines) {
        boolean allCompleted = jobs.stream().allMatch(job -> job.job().state() == JobState.COMPLETED);
        int code = ExitCodes.of(timedOut ? ExitCodes.Outcome.WAIT_TIMED_OUT
                : allCompleted ? ExitCodes.Outcome.OK : ExitCodes.Outcome.JOB_FAILED);
        Map<Long, String> logs = new LinkedHashMap<>();
        if (logLines > 0) {
            for (JobView job : jobs) {
                if (job.jobDir() != null) {
                    logs.put(job.id(), queue.logs().tail(job, false, logLines));
                }
            }
        }
        if (options.json) {
            context.out().println(Json.write(new JsonCommands.Waited(Json.SCHEMA_VERSION, !timedOut && allCompleted, timedOut,
                    jobs.stream().map(Render::json).toList(), logLines > 0 ? logs : null)));
        } else {
            for (JobView job : jobs) {
                String how = job.job().exitCode() != null ? " exit " + job.job().exitCode()
                        : job.job().lastError() != null && job.job().state().endedBadly() ? ": " + job.job().lastError()
                        : job.pendingReason() != null ? ": " + job.pendingReason() : "";
                context.out().println(job.id() + " " + job.job().state().key() + Printable.of(how));
            }
            logs.forEach((id, text) -> {
                context.out().println("--- job " + id + ": last " + logLines + " lines of stdout ---");
                String shown = Printable.lines(text);
                context.out().print(shown.isEmpty() || shown.endsWith("\n") ? shown : shown + "\n");
            });
            if (timedOut) {
                context.err().println("nvidb: gave up waiting; the jobs above are still pending or running");
            }
        }
        return code;
    }
}
