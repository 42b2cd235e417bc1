package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonQueue;
import dev.nvidb.output.QueueText;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.QueueStatus;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nvidb queue nodes [--procs] [--include-ignored]}: capacity, and the unmanaged work behind it. */
@Command(name = "nodes", description = "Queue nodes with per-GPU budgets and the unmanaged work behind them.")
final class QueueNodesCommand implements Callable<Integer>, HandedCommand.AsLine {

    private final Context context;

    @Mixin
    QueueOptions options;

    @Option(names = "--procs", description = "List every process on every GPU, with its owner.")
    boolean procs;
    @Option(names = "--include-ignored", description = "Also list ignored nodes.")
    boolean includeIgnored;

    QueueNodesCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context).lastUse()) {
            Queue queue = wiring.queue(options);
            wiring.refresh(queue, options, true);
            QueueStatus status = queue.reading().status(includeIgnored, 0);
            if (options.json) {
                context.out().println(Json.write(JsonQueue.nodes(status.nodes())));
            } else {
                context.out().print(QueueText.nodes(status.nodes(), procs, Instant.now(), Terminal.width(context),
                        Terminal.style(context, false)));
            }
            return ExitCodes.ok();
        }
    }
}
