package dev.nvidb.cli;

import dev.nvidb.app.Cleanup;
import dev.nvidb.app.Wiring;
import dev.nvidb.config.ConfiguredServer;
import dev.nvidb.config.DatabaseFiles;
import dev.nvidb.error.UsageException;
import dev.nvidb.output.Printable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nvidb clean}: a menu on the terminal to remove servers from the config files or delete
 * the GPU log, each after a y/N. Scripts name what to delete with its subcommands and
 * {@code --yes} instead.
 */
@Command(name = "clean", description = "Remove servers from config.yml or delete the GPU log (a menu that asks first).",
        synopsisSubcommandLabel = "[COMMAND]",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb clean                         a menu: servers, GPU log, quit",
                "  nvidb clean servers gpu-a --yes     remove one server, for scripts",
                "  nvidb clean logs --yes              delete ~/.nvidb/gpu_log.db",
                "  nvidb clean all                     servers and GPU log, confirmed twice",
                "",
                "The queue's database (queue.db) is never deleted: 'nvidb queue gc' trims it."})
final class CleanCommand extends ContextCall {

    @Option(names = "--db-path", paramLabel = "FILE", description = "The GPU log to offer (default: $NVIDB_HOME/gpu_log.db).")
    String dbPath;

    @Override
    public Integer call() {
        if (!context.terminal()) {
            throw new UsageException("nvidb clean is a menu for a terminal, and there is none: name what to delete and"
                    + " pass --yes ('nvidb clean servers NAME... --yes', 'nvidb clean logs --yes', 'nvidb clean all --yes')");
        }
        try (Wiring wiring = new Wiring(context)) {
            Cleanup cleanup = new Cleanup(context, wiring);
            Prompts prompts = new Prompts(context);
            while (true) {
                List<ConfiguredServer> servers = cleanup.servers();
                DatabaseFiles log = cleanup.gpuLog(dbPath);
                if (servers.isEmpty() && log.existing().isEmpty()) {
                    context.err().println("nothing to delete: no servers in the config files, no GPU log at "
                            + cleanup.home().display(log.database()));
                    return ExitCodes.ok();
                }
                context.err().println("What to delete?");
                context.err().println("  1) servers: " + (servers.isEmpty() ? "none"
                        : String.join(", ", servers.stream().map(ConfiguredServer::name).toList())));
                context.err().println("  2) GPU log: " + (log.existing().isEmpty() ? "none at "
                        + cleanup.home().display(log.database()) : cleanup.describe(log)));
                context.err().println("  3) quit");
                Optional<String> choice = prompts.line("Choose 1, 2 or 3: ");
                if (choice.isEmpty() || List.of("3", "q", "quit").contains(choice.get())) {
                    return ExitCodes.ok();
                }
                switch (choice.get()) {
                    case "1" -> servers(cleanup, prompts, servers);
                    case "2" -> logs(cleanup, prompts, log);
                    default -> context.err().println("'" + Printable.of(choice.get()) + "' is not 1, 2 or 3");
                }
            }
        }
    }

    private void servers(Cleanup cleanup, Prompts prompts, List<ConfiguredServer> servers) {
        if (servers.isEmpty()) {
            context.err().println("no servers in the config files");
            return;
        }
        for (int index = 0; index < servers.size(); index++) {
            ConfiguredServer server = servers.get(index);
            context.err().println(String.format("  %d) %s", index + 1, Cleanup.label(server)));
        }
        Optional<List<String>> chosen = choose(prompts, servers);
        if (chosen.isEmpty()) {
            return;
        }
        cleanup.say(cleanup.queueWarnings(chosen.get(), true));
        if (prompts.confirm("Remove " + String.join(", ", chosen.get()) + " from " + cleanup.filesOf(chosen.get()) + "?")) {
            cleanup.removeServers(chosen.get(), true);
        } else {
            context.err().println("nothing removed");
        }
    }

    /** The names picked by number or name; empty to go back (an empty line, or the end of input). */
    private Optional<List<String>> choose(Prompts prompts, List<ConfiguredServer> servers) {
        while (true) {
            Optional<String> line = prompts.line("Servers to remove (numbers or names; empty to go back): ");
            if (line.isEmpty() || line.get().isEmpty()) {
                return Optional.empty();
            }
            List<String> names = new ArrayList<>();
            String wrong = null;
            for (String word : line.get().split("[\\s,]+")) {
                Optional<String> name = Cleanup.pick(word, servers);
                if (name.isEmpty()) {
                    wrong = word;
                    break;
                }
                if (!names.contains(name.get())) {
                    names.add(name.get());
                }
            }
            if (wrong == null) {
                return Optional.of(names);
            }
            context.err().println("'" + Printable.of(wrong) + "' is not a number from 1 to " + servers.size() + " or a server's name");
        }
    }

    private void logs(Cleanup cleanup, Prompts prompts, DatabaseFiles log) {
        if (log.existing().isEmpty()) {
            context.err().println("no GPU log at " + cleanup.home().display(log.database()));
            return;
        }
        if (prompts.confirm("Delete the GPU log " + cleanup.describe(log) + "?")) {
            cleanup.deleteLog(log);
        } else {
            context.err().println("nothing deleted");
        }
    }
}
