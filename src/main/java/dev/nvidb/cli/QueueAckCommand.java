package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.error.Missing;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.error.UsageException;
import dev.nvidb.output.Json;
import dev.nvidb.queue.Queue;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nvidb queue ack ID | --all}: acknowledge alerts; they are never raised again for the same failure. */
@Command(name = "ack", description = "Acknowledge one alert, or every open one with --all.")
final class QueueAckCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    QueueOptions options;

    @Mixin
    OpIdOption operation;

    @Parameters(arity = "0..1", paramLabel = "ID")
    String id;
    @Option(names = "--all", description = "Acknowledge every open alert.")
    boolean all;

    QueueAckCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        if ((id == null) == !all) {
            throw new UsageException("give an alert id or --all", "see 'nvidb queue alerts'");
        }
        Long alert = id == null ? null : JobIds.parse(id);
        try (Wiring wiring = new Wiring(context)) {
            Queue queue = alert == null ? wiring.queue(options) : wiring.existingQueue(options, () -> Missing.alert(alert));
            int count = queue.reading().acknowledge(alert);
            if (options.json) {
                context.out().println(Json.write(new JsonCommands.Acknowledged(Json.SCHEMA_VERSION, true, count)));
            } else {
                context.err().println("acknowledged " + count + (count == 1 ? " alert" : " alerts"));
            }
            return ExitCodes.ok();
        }
    }
}
