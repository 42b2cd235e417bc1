package dev.nvidb.cli;

import dev.nvidb.output.Printable;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.output.Json;
import dev.nvidb.queue.JobChange;
import dev.nvidb.queue.JobControl;
import dev.nvidb.queue.Queue;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code nvidb job cancel|requeue ID…}: end jobs now, or run them again. Exit 0 when every job
 * changed, 1 when some could not (already ended, already pending).
 */
abstract class JobChangeCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    QueueOptions options;

    @Parameters(arity = "1..*", paramLabel = "ID", description = "The jobs.")
    List<String> ids;

    JobChangeCommand(Context context) {
        this.context = context;
    }

    abstract List<JobChange> apply(JobControl control, List<Long> jobs);

    @Override
    public Integer call() {
        List<Long> jobs = ids.stream().map(JobIds::parse).toList();
        try (Wiring wiring = new Wiring(context)) {
            Queue queue = wiring.queue(options);
            jobs.forEach(queue.reading()::getJob);
            List<JobChange> changes = apply(queue.control(), jobs);
            boolean all = changes.stream().allMatch(JobChange::changed);
            if (options.json) {
                context.out().println(Json.write(new JsonCommands.JobsChanged(Json.SCHEMA_VERSION, all, changes)));
            } else {
                changes.forEach(change -> context.err().println(Printable.of(change.message())));
            }
            return ExitCodes.okOr(all, ExitCodes.Outcome.FAILED);
        }
    }

    @Command(name = "cancel", description = "Cancel jobs: pending ones never start, running ones are killed.")
    static final class Cancel extends JobChangeCommand {
        Cancel(Context context) {
            super(context);
        }

        List<JobChange> apply(JobControl control, List<Long> jobs) {
            return control.cancel(jobs);
        }
    }

    @Command(name = "requeue", description = "Run jobs again (a running one is killed first); the note is kept.")
    static final class Requeue extends JobChangeCommand {
        Requeue(Context context) {
            super(context);
        }

        List<JobChange> apply(JobControl control, List<Long> jobs) {
            return control.requeue(jobs);
        }
    }
}
