package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.DaemonText;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.output.Printable;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.RetentionResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code nvidb queue gc [--dry-run]}: retention now: remove finished jobs, events, alerts and job
 * directories older than {@code queue.retention} allows (the daemon does this about hourly).
 */
@Command(name = "gc", description = "Remove finished jobs, events, alerts and job directories past queue.retention.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue gc --dry-run    # what would go (reads the database, asks no node)",
                "  nvidb queue gc"})
final class QueueGcCommand extends QueueCall {

    @Mixin
    OpIdOption operation;

    @Option(names = "--dry-run", description = "Count what would be removed from the database and change nothing.")
    boolean dryRun;

    @Override
    int run(Queue queue, Wiring wiring) {
        RetentionResult result = queue.retention().run(dryRun);
        answer(() -> JsonCommands.Collected.of(result), () -> {
            context.out().println((dryRun ? "would remove: " : "removed: ") + DaemonText.retention(result));
            result.problems().forEach(problem -> context.err().println("nvidb: " + Printable.of(problem)));
        });
        return ExitCodes.okOr(result.problems().isEmpty(), ExitCodes.Outcome.FAILED);
    }
}
