package dev.nvidb.cli;

import dev.nvidb.app.Cleanup;
import dev.nvidb.app.Wiring;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code nvidb clean servers NAME...}: removes servers from config.yml (and from queue.yml's own
 * {@code servers:}), leaving every other line of the files as it was; asks unless {@code --yes}.
 */
@Command(name = "servers", description = "Remove servers from config.yml and queue.yml, keeping the rest of the files.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb clean servers gpu-a             asks first",
                "  nvidb clean servers gpu-a gpu-b --yes"})
final class CleanServersCommand extends ContextCall {

    @Parameters(paramLabel = "NAME", arity = "1..*", description = "Servers to remove (nickname, else hostname; see 'nvidb ls').")
    List<String> names;

    @Option(names = {"-y", "--yes"}, description = "Remove without asking (for scripts).")
    boolean yes;

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            Cleanup cleanup = new Cleanup(context, wiring);
            List<String> chosen = names.stream().distinct().toList();
            cleanup.requireKnown(chosen);
            Prompts.requireAnswerable(context, yes, "nvidb clean servers");
            cleanup.say(cleanup.queueWarnings(chosen, true));
            if (!yes && !new Prompts(context).confirm("Remove " + String.join(", ", chosen) + " from "
                    + cleanup.filesOf(chosen) + "?")) {
                context.err().println("nothing removed");
                return ExitCodes.ok();
            }
            cleanup.removeServers(chosen, true);
            return ExitCodes.ok();
        }
    }
}
