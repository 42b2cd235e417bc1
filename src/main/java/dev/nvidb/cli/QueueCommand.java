package dev.nvidb.cli;

import picocli.CommandLine.Command;

/** {@code nvidb queue …}: the queue as a whole: status, nodes, events, ticks. */
@Command(name = "queue", description = "Inspect and administer the job queue.", synopsisSubcommandLabel = "COMMAND",
        mixinStandardHelpOptions = true,
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue status",
                "  nvidb queue alerts",
                "  nvidb queue drain gpu-a"})
final class QueueCommand extends CommandGroup {
}
