package dev.nvidb.cli;

import picocli.CommandLine.Command;

/** {@code nvidb job …}: submit and manage queue jobs. */
@Command(name = "job", description = "Submit and manage queue jobs.", synopsisSubcommandLabel = "COMMAND",
        mixinStandardHelpOptions = true)
final class JobCommand extends CommandGroup {
}
