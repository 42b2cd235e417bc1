package dev.nvidb.cli;

import picocli.CommandLine.Command;

/** {@code nvidb queue …}: the queue as a whole: status, nodes, events, ticks. */
@Command(name = "queue", description = "Inspect and administer the job queue.", synopsisSubcommandLabel = "COMMAND",
        mixinStandardHelpOptions = true)
final class QueueCommand implements java.util.concurrent.Callable<Integer> {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** Without a subcommand: the list of subcommands, and a usage exit code. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}
