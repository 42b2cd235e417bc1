package dev.nvidb.cli;

import dev.nvidb.keeper.KeeperState;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonKeeper;
import dev.nvidb.output.KeeperText;
import java.time.ZoneId;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code nvidb queue keeper status}: exits 0 only while something keeps the queue moving. */
@Command(name = "status", description = "Show the keeper: installed, up or DOWN, its pids; exit 1 unless it is up.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue keeper status",
                "  nvidb queue keeper status --json"})
final class QueueKeeperStatusCommand extends ContextCall {

    @Mixin
    JsonOption options;

    @Override
    public Integer call() {
        KeeperState state = QueueKeeperCommand.keeper(context).status().orElse(null);
        if (options.json) {
            context.out().println(Json.write(JsonKeeper.Status.of(state)));
        } else if (state == null) {
            context.out().println("no queue keeper is installed; the queue moves only while commands run"
                    + " (install one: nvidb queue keeper install --start)");
        } else {
            context.out().println(KeeperText.line(state, ZoneId.systemDefault(), Terminal.style(context, false)));
            context.out().println("  " + state.kind().label() + " keeper: " + state.file());
        }
        return ExitCodes.okOr(state != null && state.up(), ExitCodes.Outcome.FAILED);
    }
}
