package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.error.Missing;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.error.UsageException;
import dev.nvidb.output.Json;
import dev.nvidb.queue.Queue;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nvidb queue ack ID | --all}: acknowledge alerts; they are never raised again for the same failure. */
@Command(name = "ack", description = "Acknowledge one alert, or every open one with --all.")
final class QueueAckCommand extends QueueCall {

    @Mixin
    OpIdOption operation;

    @Parameters(arity = "0..1", paramLabel = "ID")
    String id;
    @Option(names = "--all", description = "Acknowledge every open alert.")
    boolean all;

    @Override
    Supplier<UsageException> missing() {
        if ((id == null) == !all) {
            throw new UsageException("give an alert id or --all", "see 'nvidb queue alerts'");
        }
        Long alert = id == null ? null : JobIds.parse(id);
        return alert == null ? null : () -> Missing.alert(alert);
    }

    @Override
    int run(Queue queue, Wiring wiring) {
        int count = queue.reading().acknowledge(id == null ? null : JobIds.parse(id));
        return answer(() -> new JsonCommands.Acknowledged(Json.SCHEMA_VERSION, true, count),
                () -> context.err().println("acknowledged " + count + (count == 1 ? " alert" : " alerts")));
    }
}
