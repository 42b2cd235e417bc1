package dev.nvidb.cli;

import dev.nvidb.output.Printable;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonJob;
import dev.nvidb.output.JsonJobs;
import dev.nvidb.output.JobText;
import dev.nvidb.queue.JobView;
import java.time.Instant;
import java.util.List;

/** Prints jobs for the job commands: JSON views or text tables, on the command's writers. */
final class Render {

    private Render() {
    }

    static JsonJob json(JobView view) {
        return JsonJob.of(view);
    }

    /**
     * {@code job ls --json} written while the jobs are read, a page at a time: the same document
     * as {@link #list}, in memory bounded whatever the queue's history; a damaged job is warned
     * about on stderr as it passes.
     */
    static void stream(Context context, dev.nvidb.queue.StatusReading reading, dev.nvidb.queue.JobSelection query) {
        JsonJobs.stream(context.out(), reading, query, view -> damaged(context, List.of(view)));
        context.out().println();
        context.out().flush();
    }

    static void list(Context context, boolean json, List<JobView> views) {
        damaged(context, views);
        if (json) {
            context.out().println(Json.write(JsonJobs.many(views.stream().map(Render::json).toList())));
            return;
        }
        Instant now = Instant.now();
        List<JobText.Row> rows = views.stream().map(view -> new JobText.Row(view.job(),
                JobText.info(view.job(), view.pendingReason(), view.unverifiedSince(), now),
                view.unverifiedSince() != null)).toList();
        context.out().print(JobText.table(rows, Terminal.width(context), Terminal.style(context, false)));
    }

    /** A warning on stderr for each job whose row could not be read whole; it is shown with what could. */
    static void damaged(Context context, List<JobView> views) {
        for (JobView view : views) {
            if (view.damage() != null) {
                context.err().println("nvidb: warning: job " + view.id() + " is damaged in queue.db: "
                        + Printable.of(view.damage()) + "; shown without it");
            }
        }
        context.err().flush();
    }
}
