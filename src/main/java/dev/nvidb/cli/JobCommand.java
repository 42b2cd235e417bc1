package dev.nvidb.cli;

import picocli.CommandLine.Command;

/** {@code nvidb job …}: submit and manage queue jobs. */
@Command(name = "job", description = "Submit and manage queue jobs.", synopsisSubcommandLabel = "COMMAND",
        subcommands = {JobSubmitCommand.class, JobLsCommand.class, JobShowCommand.class, JobNoteCommand.class,
                JobPriorityCommand.class, JobResultCommand.class, JobPurgeCommand.class})
final class JobCommand {
}
