package dev.nvidb.cli;

import picocli.CommandLine.Command;

/** {@code nvidb queue …}: the queue as a whole: status, nodes, events, ticks. */
@Command(name = "queue", description = "Inspect and administer the job queue.", synopsisSubcommandLabel = "COMMAND",
        subcommands = {QueueStatusCommand.class, QueueNodesCommand.class, QueueAlertsCommand.class,
                QueueAckCommand.class, QueueTickCommand.class, QueueEventsCommand.class,
                QueueNodeAdminCommand.Drain.class, QueueNodeAdminCommand.Resume.class,
                QueueNodeAdminCommand.Ignore.class, QueueNodeAdminCommand.Unignore.class})
final class QueueCommand {
}
