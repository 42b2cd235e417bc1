package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.error.Missing;
import dev.nvidb.output.Printable;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.error.UsageException;
import dev.nvidb.output.Json;
import dev.nvidb.queue.Queue;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nvidb job note ID [TEXT] [--append TEXT] [--clear]}: read or edit your note on a job. */
@Command(name = "note", description = "Read, replace, extend or clear your note on a job.")
final class JobNoteCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    QueueOptions options;

    @Mixin
    OpIdOption operation;

    @Parameters(index = "0", paramLabel = "ID")
    String id;
    @Parameters(index = "1", arity = "0..1", paramLabel = "TEXT", description = "Replace the note with this text.")
    String text;
    @Option(names = "--append", paramLabel = "TEXT", description = "Add a line to the note.")
    String append;
    @Option(names = "--clear", description = "Remove the note.")
    boolean clear;

    JobNoteCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        long jobId = JobIds.parse(id);
        int edits = (text != null ? 1 : 0) + (append != null ? 1 : 0) + (clear ? 1 : 0);
        if (edits > 1) {
            throw new UsageException("give one of TEXT, --append TEXT or --clear");
        }
        try (Wiring wiring = new Wiring(context)) {
            Queue queue = wiring.existingQueue(options, () -> Missing.job(jobId));
            if (text != null) {
                queue.control().setNote(jobId, text);
            } else if (append != null) {
                queue.control().appendNote(jobId, append);
            } else if (clear) {
                queue.control().setNote(jobId, null);
            }
            String note = queue.reading().getJob(jobId).job().note();
            if (options.json) {
                context.out().println(Json.write(new JsonCommands.Noted(Json.SCHEMA_VERSION, true, jobId, note)));
            } else if (edits == 0 && note != null) {
                context.out().println(Printable.lines(note));
            }
            return ExitCodes.ok();
        }
    }
}
