package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.output.Printable;
import dev.nvidb.error.UsageException;
import dev.nvidb.queue.BackupResult;
import dev.nvidb.queue.Backups;
import dev.nvidb.queue.Queue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code nvidb queue backup [PATH] [--keep N]}: a checked copy of queue.db made while the queue
 * keeps running, published atomically, never over an existing file.
 */
@Command(name = "backup", description = "Copy queue.db safely while the queue runs (never over an existing file).",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue backup                  # $NVIDB_HOME/backups/queue-<UTC time>.db",
                "  nvidb queue backup /secure/q.db     # this file, which must not exist yet",
                "  nvidb queue backup --keep 7         # and delete older backups beyond 7"})
final class QueueBackupCommand extends ContextCall {

    @Mixin
    QueueOptions options;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PATH",
            description = "Where to write the copy (must not exist); default: a new file in the backups folder.")
    String path;

    @Option(names = "--keep", paramLabel = "N", converter = NumberOption.PositiveCount.class,
            description = "Then keep only the newest N of nvidb's backups in that folder (other files are never touched).")
    Integer keep;

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            // Checked before the queue is opened (which would create an empty one): bad input changes nothing.
            Path database = wiring.databaseFile(options);
            Path defaultFolder = wiring.config().queue().backup().directory() != null
                    ? wiring.config().queue().backup().directory() : database.toAbsolutePath().getParent().resolve("backups");
            Path target = path == null ? null : Backups.checkTarget(wiring.home().expand(path), defaultFolder);
            if (!Files.isRegularFile(database)) {
                throw new UsageException("no queue database at " + database + ": nothing to back up",
                        "check NVIDB_HOME (or --db-path); a queue exists once a job was submitted there");
            }
            Queue queue = wiring.queue(options);
            BackupResult result = queue.backups().take(target, keep);
            if (options.json) {
                context.out().println(Json.write(JsonCommands.BackedUp.of(result)));
            } else {
                context.out().println(Printable.of(result.file().toString()));
                context.err().println(String.format(Locale.ROOT, "backed up the queue (%.1f MiB, checked)%s",
                        result.bytes() / 1048576.0, result.removed().isEmpty() ? ""
                                : "; removed " + result.removed().size() + " older backup"
                                + (result.removed().size() == 1 ? "" : "s")));
            }
            return ExitCodes.ok();
        }
    }
}
