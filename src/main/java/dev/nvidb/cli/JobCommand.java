package dev.nvidb.cli;

import picocli.CommandLine.Command;

/** {@code nvidb job …}: submit and manage queue jobs. */
@Command(name = "job", description = "Submit and manage queue jobs.", synopsisSubcommandLabel = "COMMAND",
        mixinStandardHelpOptions = true,
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb job submit --vram 20G -- python train.py --lr 3e-4",
                "  nvidb job ls --active",
                "  nvidb job wait 12 --timeout 3600",
                "  nvidb job logs 12 -f"})
final class JobCommand extends CommandGroup {
}
