package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.error.Missing;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonWhy;
import dev.nvidb.output.WhyText;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.WhyView;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code nvidb job why ID}: why a pending job waits, node by node and GPU by GPU, and where it
 * would fit first. Explained from the last answer of each node (a read command: it refreshes
 * first only when the last tick is older than {@code tick_min_interval}).
 */
@Command(name = "why", description = {
        "Explain why a pending job waits, and where it would start first.",
        "Every node and GPU considered, with the figures: free memory against --vram, drained, down, "
                + "--node, dependencies, GPUs kept for an earlier job.",
        "The figures are each node's last answer; nothing else is contacted. A job that is not pending "
                + "is named with its state (exit 0)."},
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb job why 12",
                "  nvidb job why 12 --no-tick        # from the database as it is",
                "  nvidb job why 12 --json | jq '.blockers[].message'"})
final class JobWhyCommand implements Callable<Integer>, HandedCommand.AsLine {

    private final Context context;

    @Mixin
    QueueOptions options;

    @Parameters(paramLabel = "ID", description = "The job.")
    String id;

    JobWhyCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        long jobId = JobIds.parse(id);
        try (Wiring wiring = new Wiring(context)) {
            Queue queue = wiring.existingQueue(options, () -> Missing.job(jobId));
            queue.reading().getJob(jobId);
            wiring.refresh(queue, options, true);
            WhyView view = queue.explaining().why(jobId);
            if (options.json) {
                context.out().println(Json.write(JsonWhy.of(Render.json(view.job()), view)));
            } else {
                context.out().print(WhyText.render(view, Instant.now()));
            }
            return ExitCodes.ok();
        }
    }
}
