package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.JsonQueue;
import dev.nvidb.output.QueueText;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.QueueStatus;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nvidb queue nodes [--procs] [--include-ignored]}: capacity, and the unmanaged work behind it. */
@Command(name = "nodes", description = "Queue nodes with per-GPU budgets and the unmanaged work behind them.")
final class QueueNodesCommand extends QueueCall.Read implements HandedCommand.AsLine {

    @Option(names = "--procs", description = "List every process on every GPU, with its owner.")
    boolean procs;
    @Option(names = "--include-ignored", description = "Also list ignored nodes.")
    boolean includeIgnored;

    @Override
    int run(Queue queue, Wiring wiring) {
        QueueStatus status = queue.reading().status(includeIgnored, 0);
        return answer(() -> JsonQueue.nodes(status.nodes()), () -> context.out().print(QueueText.nodes(status.nodes(),
                procs, Instant.now(), Terminal.width(context), Terminal.style(context, false))));
    }
}
