package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.Printable;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.error.UsageException;
import dev.nvidb.output.Json;
import dev.nvidb.queue.Queue;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nvidb job note ID [TEXT] [--append TEXT] [--clear]}: read or edit your note on a job. */
@Command(name = "note", description = "Read, replace, extend or clear your note on a job.")
final class JobNoteCommand extends QueueCall {

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

    @Override
    List<Long> jobs() {
        long jobId = JobIds.parse(id);
        if ((text != null ? 1 : 0) + (append != null ? 1 : 0) + (clear ? 1 : 0) > 1) {
            throw new UsageException("give one of TEXT, --append TEXT or --clear");
        }
        return List.of(jobId);
    }

    @Override
    int run(Queue queue, Wiring wiring) {
        long jobId = jobs().get(0);
        if (text != null) {
            queue.control().setNote(jobId, text);
        } else if (append != null) {
            queue.control().appendNote(jobId, append);
        } else if (clear) {
            queue.control().setNote(jobId, null);
        }
        String note = queue.reading().getJob(jobId).job().note();
        return answer(() -> new JsonCommands.Noted(Json.SCHEMA_VERSION, true, jobId, note), () -> {
            if (text == null && append == null && !clear && note != null) {
                context.out().println(Printable.lines(note));
            }
        });
    }
}
