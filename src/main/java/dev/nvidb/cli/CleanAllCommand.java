package dev.nvidb.cli;

import dev.nvidb.app.Cleanup;
import dev.nvidb.app.Wiring;
import dev.nvidb.config.ConfiguredServer;
import dev.nvidb.config.DatabaseFiles;
import java.util.List;
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
final class CleanAllCommand extends ContextCall {

    @Option(names = "--db-path", paramLabel = "FILE", description = "The GPU log to delete (default: $NVIDB_HOME/gpu_log.db).")
    String dbPath;

    @Option(names = {"-y", "--yes"}, description = "Delete without asking (for scripts).")
    boolean yes;

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
                cleanup.say(cleanup.listing(servers, log));
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
}
