package dev.nvidb.cli;

import picocli.CommandLine.Command;

/** {@code nvidb job …}: submit and manage queue jobs. */
@Command(name = "job", description = "Submit and manage queue jobs.", synopsisSubcommandLabel = "COMMAND",
        subcommands = {JobSubmitCommand.class, JobLsCommand.class, JobShowCommand.class, JobLogsCommand.class,
                JobWaitCommand.class, JobChangeCommand.Cancel.class, JobChangeCommand.Requeue.class,
                JobPriorityCommand.class, JobNoteCommand.class, JobResultCommand.class, JobPurgeCommand.class})
final class JobCommand {
}
