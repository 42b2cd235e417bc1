package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.JsonWhy;
import dev.nvidb.output.WhyText;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.WhyView;
import java.util.List;
import java.time.Instant;
import picocli.CommandLine.Command;
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
final class JobWhyCommand extends QueueCall.Read implements HandedCommand.AsLine {

    @Parameters(paramLabel = "ID", description = "The job.")
    String id;

    @Override
    List<Long> jobs() {
        return List.of(JobIds.parse(id));
    }

    @Override
    int run(Queue queue, Wiring wiring) {
        WhyView view = queue.explaining().why(jobs().get(0));
        return answer(() -> JsonWhy.of(Render.json(view.job()), view),
                () -> context.out().print(WhyText.render(view, Instant.now())));
    }
}
