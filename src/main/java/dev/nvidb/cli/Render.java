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
        return JsonJob.of(view.job(), view.pendingReason(), view.unverifiedSince(), view.job().result(),
                view.jobDir());
    }

    static void submitted(Context context, boolean json, JobView view) {
        if (json) {
            context.out().println(Json.write(JsonJobs.one(json(view), null)));
            return;
        }
        context.out().println(view.id());
        String where = switch (view.job().state()) {
            case PENDING -> "pending: " + Printable.of(view.pendingReason());
            case RUNNING -> "running on " + Printable.of(view.job().assignment().node());
            default -> view.job().state().key() + (view.job().lastError() == null ? "" : ": "
                    + Printable.of(view.job().lastError()));
        };
        context.err().println("submitted job " + view.id() + " (" + Printable.of(view.job().spec().name()) + "), " + where);
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
