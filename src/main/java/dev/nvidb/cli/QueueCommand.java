package dev.nvidb.cli;

import picocli.CommandLine.Command;

/**
 * {@code nvidb queue …}: the queue as a whole: status, nodes, events, ticks. Alone, it opens
 * the queue screen ({@link QueueTuiCommand}).
 */
@Command(name = "queue", description = "Inspect and administer the job queue.", synopsisSubcommandLabel = "COMMAND",
        mixinStandardHelpOptions = true,
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue                 the queue screen (same as: nvidb queue tui)",
                "  nvidb queue status",
                "  nvidb queue alerts",
                "  nvidb queue drain gpu-a"})
final class QueueCommand extends CommandGroup {

    @Override
    public Integer call() {
        QueueTuiCommand screen = new QueueTuiCommand();
        screen.context = context;
        return screen.call();
    }
}
