package dev.nvidb.cli;

import dev.nvidb.app.Cleanup;
import dev.nvidb.app.Wiring;
import dev.nvidb.config.DatabaseFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nvidb clean logs}: deletes the GPU history database ({@code $NVIDB_HOME/gpu_log.db} or
 * {@code --db-path}) with its {@code -wal} and {@code -shm} files; asks unless {@code --yes}.
 */
@Command(name = "logs", description = "Delete the GPU log (gpu_log.db with its -wal and -shm files).",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb clean logs                          asks first",
                "  nvidb clean logs --yes",
                "  nvidb clean logs --db-path /scratch/gpu_log.db --yes"})
final class CleanLogsCommand extends ContextCall {

    @Option(names = "--db-path", paramLabel = "FILE", description = "The GPU log to delete (default: $NVIDB_HOME/gpu_log.db).")
    String dbPath;

    @Option(names = {"-y", "--yes"}, description = "Delete without asking (for scripts).")
    boolean yes;

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            Cleanup cleanup = new Cleanup(context, wiring);
            DatabaseFiles log = cleanup.gpuLog(dbPath);
            Prompts.requireAnswerable(context, yes, "nvidb clean logs");
            if (log.existing().isEmpty()) {
                context.err().println("nothing to delete: no GPU log at " + cleanup.home().display(log.database()));
                return ExitCodes.ok();
            }
            if (!yes && !new Prompts(context).confirm("Delete the GPU log " + cleanup.describe(log) + "?")) {
                context.err().println("nothing deleted");
                return ExitCodes.ok();
            }
            cleanup.deleteLog(log);
            return ExitCodes.ok();
        }
    }
}
