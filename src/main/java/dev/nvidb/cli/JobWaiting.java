package dev.nvidb.cli;

import dev.nvidb.output.JsonCommands;
import dev.nvidb.engine.JobView;
import dev.nvidb.engine.QueueService;
import dev.nvidb.model.JobState;
import dev.nvidb.output.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Blocks until jobs end, ticking the queue meanwhile (rate-limited and lease-guarded, so many
 * waiters make one round of SSH traffic). Exit code: 0 all completed, 1 any ended badly,
 * 2 the wait timed out with a job still pending or running.
 */
final class JobWaiting {

    /** First pause between checks; it grows by half each time up to {@link #POLL_MAX}. */
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration POLL_MAX = Duration.ofSeconds(1);

    private JobWaiting() {
    }

    static int await(Context context, Wiring wiring, QueueService queue, QueueOptions options, List<Long> ids,
                     Long timeoutSeconds, int logLines) {
        Instant deadline = timeoutSeconds == null ? null : Instant.now().plusSeconds(timeoutSeconds);
        List<JobView> jobs = views(queue, ids);
        long pause = POLL.toMillis();
        while (!allEnded(jobs)) {
            if (deadline != null && Instant.now().isAfter(deadline)) {
                return report(context, wiring, queue, options, jobs, true, logLines);
            }
            pause(pause);
            pause = Math.min(POLL_MAX.toMillis(), pause + pause / 2);
            if (!options.noTick) {
                queue.tick(dev.nvidb.engine.TickMode.IF_DUE);
            }
            jobs = views(queue, ids);
        }
        return report(context, wiring, queue, options, jobs, false, logLines);
    }

    private static List<JobView> views(QueueService queue, List<Long> ids) {
        List<JobView> views = new ArrayList<>();
        for (long id : ids) {
            views.add(queue.getJob(id));
        }
        return views;
    }

    private static boolean allEnded(List<JobView> jobs) {
        return jobs.stream().allMatch(job -> job.job().state().finished());
    }

    private static int report(Context context, Wiring wiring, QueueService queue, QueueOptions options,
                              List<JobView> jobs, boolean timedOut, int logLines) {
        boolean allCompleted = jobs.stream().allMatch(job -> job.job().state() == JobState.COMPLETED);
        int code = ExitCodes.of(timedOut ? ExitCodes.Outcome.WAIT_TIMED_OUT
                : allCompleted ? ExitCodes.Outcome.OK : ExitCodes.Outcome.JOB_FAILED);
        java.util.Map<Long, String> logs = new java.util.LinkedHashMap<>();
        if (logLines > 0) {
            for (JobView job : jobs) {
                if (job.jobDir() != null) {
                    logs.put(job.id(), wiring.logs(queue).tail(job, false, logLines));
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
                context.out().println(job.id() + " " + job.job().state().key() + how);
            }
            logs.forEach((id, text) -> {
                context.out().println("--- job " + id + ": last " + logLines + " lines of stdout ---");
                context.out().print(text.isEmpty() || text.endsWith("\n") ? text : text + "\n");
            });
            if (timedOut) {
                context.err().println("nvidb: gave up waiting; the jobs above are still pending or running");
            }
        }
        return code;
    }

    /** A pause between polls; the state lives in the database, written by other processes. */
    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new dev.nvidb.error.InterruptedByUser("interrupted while waiting", e);
        }
    }
}
