package dev.nvidb.cli;

import dev.nvidb.keeper.Keeper;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonKeeper;
import dev.nvidb.output.Printable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nvidb queue keeper logs [-n N]}: the last lines of the keeper's log (systemd: its journal). */
@Command(name = "logs", description = "Print the last lines of the keeper's log (systemd: journalctl --user).",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue keeper logs",
                "  nvidb queue keeper logs -n 200"})
final class QueueKeeperLogsCommand extends ContextCall {

    @Mixin
    JsonOption options;

    @Option(names = "-n", paramLabel = "N", converter = NumberOption.Count.class, description = "How many lines (default 50).")
    int lines = 50;

    @Override
    public Integer call() {
        Keeper.Logs logs = QueueKeeperCommand.keeper(context).logs(lines);
        return answer(options.json, () -> new JsonKeeper.Logs(Json.SCHEMA_VERSION, true, logs.kind().label(),
                logs.source(), logs.lines()), () -> logs.lines().forEach(line -> context.out().println(Printable.of(line))));
    }
}
