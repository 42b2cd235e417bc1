package dev.nvidb.cli;

import picocli.CommandLine.Command;

/** {@code nvidb job …}: submit and manage queue jobs. */
@Command(name = "job", description = "Submit and manage queue jobs.", synopsisSubcommandLabel = "COMMAND",
        mixinStandardHelpOptions = true)
final class JobCommand implements java.util.concurrent.Callable<Integer> {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** Without a subcommand: the list of subcommands, and a usage exit code. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}
