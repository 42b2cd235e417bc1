package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.Printable;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonQueue;
import dev.nvidb.output.QueueText;
import dev.nvidb.queue.AlertView;
import dev.nvidb.queue.Queue;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nvidb queue alerts [--detail]}: what needs attention. Exits 1 while any alert is open,
 * so a shell or an agent can branch on it.
 */
@Command(name = "alerts", description = "Open alerts (exit 1 while any is open); --detail adds the captured output.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue alerts --detail",
                "  nvidb queue ack --all"})
final class QueueAlertsCommand extends QueueCall.Read implements HandedCommand.AsLine {

    @Option(names = "--detail", description = "Also print each alert's captured output (the end of stderr).")
    boolean detail;

    @Override
    int run(Queue queue, Wiring wiring) {
        List<AlertView> open = queue.reading().openAlerts();
        answer(() -> new JsonCommands.Alerts(Json.SCHEMA_VERSION, open.isEmpty(), open.size(),
                open.stream().map(JsonQueue::alert).toList()), () -> {
            context.out().print(QueueText.alerts(open, Terminal.width(context), Terminal.style(context, false)));
            for (AlertView alert : open) {
                if (detail && alert.detail() != null) {
                    context.out().println("--- alert " + alert.id() + " ---");
                    context.out().println(Printable.lines(alert.detail().stripTrailing()));
                }
            }
            if (open.isEmpty()) {
                context.err().println("no open alerts");
            }
        });
        return ExitCodes.okOr(open.isEmpty(), ExitCodes.Outcome.ALERTS_OPEN);
    }
}
