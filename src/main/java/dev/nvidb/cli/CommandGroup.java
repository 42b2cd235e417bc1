package dev.nvidb.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A command that only groups others ({@code job}, {@code queue}): alone, it lists them and exits 2. */
abstract class CommandGroup extends ContextCall {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.of(ExitCodes.Outcome.USAGE);
    }
}
