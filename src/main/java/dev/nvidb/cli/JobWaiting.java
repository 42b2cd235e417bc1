package dev.nvidb.cli;

import dev.nvidb.output.Json;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.output.WaitText;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.Waiting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

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
        // Drawn on a terminal's stderr, unless stderr was sent to a file (2>wait.log; Linux only).
        WaitText.Progress progress = new WaitText.Progress(context.err(), () -> Terminal.width(context),
                context.terminal() && !Files.isRegularFile(Path.of("/proc/self/fd/2")));
        Waiting.Outcome outcome;
        try {
            outcome = queue.waiting().await(ids, timeoutSeconds == null ? null : Duration.ofSeconds(timeoutSeconds),
                    !options.noTick, progress);
        } finally {
            progress.erase();
        }
        return report(context, options, outcome, queue.logs().tails(outcome.jobs(), logLines), logLines);
    }

    private static int report(Context context, QueueOptions options, Waiting.Outcome outcome, Map<Long, String> logs,
                              int logLines) {
        List<JobView> jobs = outcome.jobs();
        boolean timedOut = outcome.timedOut();
        int code = ExitCodes.of(timedOut ? ExitCodes.Outcome.WAIT_TIMED_OUT
                : outcome.allCompleted() ? ExitCodes.Outcome.OK : ExitCodes.Outcome.JOB_FAILED);
        if (options.json) {
            context.out().println(Json.write(JsonCommands.Waited.of(outcome, logs, logLines)));
        } else {
            context.out().print(WaitText.ended(jobs, logs, logLines));
            if (timedOut) {
                context.err().println("nvidb: gave up waiting; the jobs above are still pending or running");
            }
        }
        return code;
    }
}
