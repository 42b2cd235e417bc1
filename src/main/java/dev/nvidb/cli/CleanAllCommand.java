package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.config.ConfiguredServer;
import dev.nvidb.config.DatabaseFiles;
import dev.nvidb.config.NvidbHome;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nvidb clean all}: deletes the GPU log and every server of config.yml, after listing what
 * goes and what stays and two confirmations (y/N, then the word {@code delete}); {@code --yes}
 * skips both. The queue's own files (queue.yml, queue.db, backups, alerts.log) stay.
 */
@Command(name = "all", description = "Delete the GPU log and every server in config.yml (confirmed twice).",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb clean all           lists what goes, asks y/N, then for 'delete'",
                "  nvidb clean all --yes     for scripts: no questions",
                "",
                "Kept: queue.yml with its servers, and queue.db (the queue's jobs and",
                "history, which 'nvidb queue gc' trims)."})
final class CleanAllCommand implements Callable<Integer> {

    private final Context context;

    @Option(names = "--db-path", paramLabel = "FILE", description = "The GPU log to delete (default: $NVIDB_HOME/gpu_log.db).")
    String dbPath;

    @Option(names = {"-y", "--yes"}, description = "Delete without asking (for scripts).")
    boolean yes;

    CleanAllCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            Cleanup cleanup = new Cleanup(context, wiring);
            DatabaseFiles log = cleanup.gpuLog(dbPath);
            Prompts.requireAnswerable(context, yes, "nvidb clean all");
            List<String> servers = cleanup.servers().stream().filter(ConfiguredServer::inConfigYml)
                    .map(ConfiguredServer::name).toList();
            if (servers.isEmpty() && log.existing().isEmpty()) {
                context.err().println("nothing to delete: no servers in " + cleanup.home().display(cleanup.home().configYml())
                        + ", no GPU log at " + cleanup.home().display(log.database()));
                return ExitCodes.ok();
            }
            if (!yes) {
                cleanup.say(listing(cleanup, servers, log));
            }
            cleanup.say(cleanup.queueWarnings(servers, false));
            if (!yes && !confirmed(new Prompts(context))) {
                context.err().println("nothing deleted");
                return ExitCodes.ok();
            }
            if (!servers.isEmpty()) {
                cleanup.removeServers(servers, false);
            }
            if (!log.existing().isEmpty()) {
                cleanup.deleteLog(log);
            }
            return ExitCodes.ok();
        }
    }

    private static boolean confirmed(Prompts prompts) {
        return prompts.confirm("Delete all of this?") && prompts.typed("delete");
    }

    /** What goes and what stays, exactly. */
    private static List<String> listing(Cleanup cleanup, List<String> servers, DatabaseFiles log) {
        NvidbHome home = cleanup.home();
        List<String> lines = new ArrayList<>();
        lines.add("nvidb clean all deletes:");
        if (!servers.isEmpty()) {
            lines.add("  the servers in " + home.display(home.configYml()) + ": " + String.join(", ", servers)
                    + " (its other settings stay)");
        }
        if (!log.existing().isEmpty()) {
            lines.add("  the GPU log " + cleanup.describe(log));
        }
        lines.add("and keeps:");
        List<String> queueYml = cleanup.servers().stream().filter(ConfiguredServer::inQueueYml)
                .map(ConfiguredServer::name).toList();
        if (Files.exists(home.queueYml())) {
            lines.add("  " + home.display(home.queueYml()) + (queueYml.isEmpty() ? ""
                    : " and its servers: " + String.join(", ", queueYml)));
        }
        lines.add("  the queue's database " + home.display(home.queueDb()) + (Files.exists(home.queueDb())
                ? " (jobs and their history; 'nvidb queue gc' trims it)" : " (there is none)"));
        return lines;
    }
}
