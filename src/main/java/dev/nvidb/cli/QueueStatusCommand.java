package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.daemon.DaemonRequest;
import dev.nvidb.keeper.Keeper;
import dev.nvidb.keeper.KeeperState;
import dev.nvidb.output.JsonKeeper;
import dev.nvidb.output.KeeperText;
import dev.nvidb.output.JsonQueue;
import dev.nvidb.output.QueueText;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.QueueStatus;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nvidb queue status [--procs]}: alerts first, then nodes with budgets, then jobs. */
@Command(name = "status", description = "Open alerts, nodes with their GPU budgets, and the job table in one view.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue status",
                "  nvidb queue status --procs --recent 20"})
final class QueueStatusCommand extends QueueCall.Read implements HandedCommand {

    @Option(names = "--procs", description = "List every GPU process, with its owner and job.")
    boolean procs;
    @Option(names = "--recent", paramLabel = "N", converter = NumberOption.Count.class, description = "Also show the N most recently finished jobs (default 10).")
    int recent = 10;

    @Override
    public DaemonRequest handed(Context context, List<String> line, String directory) {
        return new DaemonRequest.Status(HandedCommand.options(options), procs, recent);
    }

    @Override
    public void takeOver(DaemonRequest request) {
        DaemonRequest.Status status = (DaemonRequest.Status) request;
        HandedCommand.takeOver(options, status.options());
        procs = status.procs();
        recent = status.recent();
    }

    @Override
    int run(Queue queue, Wiring wiring) {
        QueueStatus status = queue.reading().status(false, Math.max(0, recent));
        KeeperState keeper = new Keeper(wiring.home(), context.environment()).state().orElse(null);
        return answer(() -> JsonQueue.status(status, JsonKeeper.of(keeper)), () -> {
            int width = Terminal.width(context);
            context.out().print(QueueText.alerts(status.openAlerts(), width, Terminal.style(context, false)));
            context.out().print(QueueText.clockSkew(status.clockSkew(), width, Terminal.style(context, false)));
            context.out().print(QueueText.delivery(status.delivery(), Instant.now(), width, Terminal.style(context, false)));
            context.out().print(QueueText.nodes(status.nodes(), procs, Instant.now(), width, Terminal.style(context, false)));
            if (!status.jobs().isEmpty()) {
                Render.list(context, false, status.jobs());
            }
            context.out().println(QueueText.counts(status.counts()) + (status.pendingReaps() > 0
                    ? "; " + status.pendingReaps() + " kills owed to unreachable nodes" : ""));
            context.out().print(QueueText.storage(status.storage(), Instant.now()));
            if (keeper != null) {
                context.out().println(KeeperText.line(keeper, java.time.ZoneId.systemDefault(), Terminal.style(context, false)));
            }
        });
    }
}
