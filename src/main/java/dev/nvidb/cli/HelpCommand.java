package dev.nvidb.cli;

import dev.nvidb.error.UsageException;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nvidb help [COMMAND…]}: the same help as {@code nvidb COMMAND… --help}, nested to any depth. */
@Command(name = "help", helpCommand = true, description = "Show the help of a command: nvidb help job submit.")
final class HelpCommand extends ContextCall {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "COMMAND", description = "The command, e.g. 'job submit'.")
    List<String> words = new ArrayList<>();

    @Override
    public Integer call() {
        CommandLine target = spec.commandLine().getParent();
        for (String word : words) {
            CommandLine next = target.getSubcommands().get(word);
            if (next == null || next.getCommandSpec().usageMessage().hidden()) {
                String parent = target.getCommandSpec().qualifiedName();
                throw new UsageException("'" + parent + "' has no command '" + word + "'",
                        "see '" + parent + " --help' for the list");
            }
            target = next;
        }
        target.usage(context.out());
        context.out().flush();
        return ExitCodes.ok();
    }
}
