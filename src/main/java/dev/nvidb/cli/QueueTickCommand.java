package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.daemon.SubmitTicks;
import dev.nvidb.output.Printable;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.error.UsageException;
import dev.nvidb.output.Json;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.TickResult;
import java.time.Duration;
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

    @Option(names = "--watch", paramLabel = "SEC", converter = NumberOption.Interval.class, description = "Tick every SEC seconds until interrupted.")
    Double watch;

    /** How long the background submit ticker waits for the next submit before it exits. */
    private static final Duration SUBMIT_LINGER = Duration.ofSeconds(3);

    @Option(names = "--background", hidden = true,
            description = "Run as the submit ticker: tick until recent submits are placed, print nothing.")
    boolean background;

    QueueTickCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        if (watch != null && watch <= 0) {
            throw new UsageException("--watch takes a positive number of seconds, got " + watch);
        }
        try (Wiring wiring = new Wiring(context)) {
            Queue queue = wiring.queue(options);
            if (background) {
                SubmitTicks.run(queue.passes(), SUBMIT_LINGER, HandoffService.warmedUp(context.environment()));
                return ExitCodes.ok();
            }
            if (watch == null) {
                TickResult report = queue.ticking().now();
                print(report);
                return ExitCodes.okOr(report.failed().isEmpty(), ExitCodes.Outcome.FAILED);
            }
            queue.ticking().watch(Duration.ofMillis(Math.round(watch * 1000)), report -> {
                print(report);
                return true;
            });
            return ExitCodes.ok();
        }
    }

    private void print(TickResult report) {
        if (options.json) {
            context.out().println(Json.write(new JsonCommands.Ticked(Json.SCHEMA_VERSION, report.failed().isEmpty(), report.ran(),
                    report.answered(), report.failed(), report.skipped(), report.settled(), report.placed(),
                    report.duration().toMillis())));
        } else if (!report.ran()) {
            context.err().println("another client ticked just now; its result is in the queue");
        } else {
            context.err().println("tick: " + report.answered().size() + " nodes answered, " + report.settled().size()
                    + " jobs settled, " + report.placed().size() + " placed, in " + report.duration().toMillis() + " ms");
            report.failed().forEach(failure -> context.err().println("  not answering: " + Printable.of(failure)));
        }
        context.out().flush();
    }
}
