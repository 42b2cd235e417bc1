package dev.nvidb.cli;

import dev.nvidb.output.Json;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.output.Printable;
import dev.nvidb.queue.BackupResult;
import dev.nvidb.queue.Queue;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
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
        footer = {"  nvidb queue backup                        # $NVIDB_HOME/backups/queue-<UTC time>.db",
                "  nvidb queue backup /secure/queue-copy.db  # an explicit file, which must not exist",
                "  nvidb queue backup --keep 7               # and delete nvidb's older backups beyond 7"})
final class QueueBackupCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    QueueOptions options;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PATH",
            description = "Where to write the copy (must not exist); default: a new file in the backups folder.")
    String path;

    @Option(names = "--keep", paramLabel = "N", converter = NumberOption.PositiveCount.class,
            description = "Then keep only the newest N of nvidb's backups in that folder (other files are never touched).")
    Integer keep;

    QueueBackupCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            Queue queue = wiring.queue(options);
            Path target = path == null ? null : wiring.home().expand(path);
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
