package dev.nvidb.cli;

import dev.nvidb.output.JsonCommands;
import dev.nvidb.engine.QueueService;
import dev.nvidb.engine.TickMode;
import dev.nvidb.engine.TickReport;
import dev.nvidb.error.UsageException;
import dev.nvidb.output.Json;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nvidb queue tick [--watch SEC]}: one scheduler pass now, or one every SEC seconds. */
@Command(name = "tick", description = "Run one scheduler pass now (or keep ticking with --watch SEC).",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue tick",
                "  nvidb queue tick --watch 5"})
final class QueueTickCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    QueueOptions options;

    @Option(names = "--watch", paramLabel = "SEC", description = "Tick every SEC seconds until interrupted.")
    Double watch;

    QueueTickCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (watch != null && watch <= 0) {
            throw new UsageException("--watch takes a positive number of seconds, got " + watch);
        }
        try (Wiring wiring = new Wiring(context)) {
            QueueService queue = wiring.queue(options);
            while (true) {
                TickReport report = queue.tick(TickMode.FORCE);
                print(report);
                if (watch == null) {
                    return ExitCodes.okOr(report.failed().isEmpty(), ExitCodes.Outcome.FAILED);
                }
                Thread.sleep(Math.round(watch * 1000));
            }
        }
    }

    private void print(TickReport report) {
        if (options.json) {
            context.out().println(Json.write(new JsonCommands.Ticked(Json.SCHEMA_VERSION, report.failed().isEmpty(), report.ran(),
                    report.answered(), report.failed(), report.skipped(), report.settled(), report.placed(),
                    report.duration().toMillis())));
        } else if (!report.ran()) {
            context.err().println("another client ticked just now; its result is in the queue");
        } else {
            context.err().println("tick: " + report.answered().size() + " nodes answered, " + report.settled().size()
                    + " jobs settled, " + report.placed().size() + " placed, in " + report.duration().toMillis() + " ms");
            report.failed().forEach(failure -> context.err().println("  not answering: " + failure));
        }
        context.out().flush();
    }
}
