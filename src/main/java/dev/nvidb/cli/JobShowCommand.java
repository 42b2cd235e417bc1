package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.Printable;
import dev.nvidb.output.JobDetailText;
import dev.nvidb.output.JsonJobs;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.Queue;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code nvidb job show ID [--logs N] [--reveal]}: everything about one job; the values of
 * variables whose names look like credentials only with {@code --reveal}.
 */
@Command(name = "show", description = "Show one job in detail, optionally with the end of its output.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb job show 12",
                "  nvidb job show 12 --logs 40",
                "  nvidb job show 12 --reveal         also the values of HF_TOKEN and the like"})
final class JobShowCommand extends QueueCall.Read implements HandedCommand.AsLine {

    @Parameters(paramLabel = "ID", description = "The job.")
    String id;

    @Option(names = "--logs", paramLabel = "N", converter = NumberOption.Count.class, description = "Also print the last N lines of stdout.")
    Integer logs;

    @Option(names = "--reveal", description = "Show the values of variables whose names look like credentials (masked otherwise).")
    boolean reveal;

    @Override
    List<Long> jobs() {
        return List.of(JobIds.parse(id));
    }

    @Override
    int run(Queue queue, Wiring wiring) {
        JobView view = queue.reading().getJob(jobs().get(0));
        Render.damaged(context, List.of(view));
        String tail = logs == null ? null : queue.logs().tail(view, false, logs);
        return answer(() -> JsonJobs.one(Render.json(view), tail, view.job().spec().environment(), reveal), () -> {
            context.out().print(JobDetailText.render(view.job(), view.pendingReason(), view.unverifiedSince(),
                    view.jobDir(), Instant.now(), reveal));
            if (tail != null) {
                context.out().println("--- last " + logs + " lines of stdout ---");
                String shown = Printable.lines(tail);
                context.out().print(shown.endsWith("\n") || shown.isEmpty() ? shown : shown + "\n");
            }
        });
    }
}
