package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.Printable;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.output.Json;
import dev.nvidb.queue.JobChange;
import dev.nvidb.queue.JobControl;
import dev.nvidb.queue.Queue;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code nvidb job cancel|requeue ID…}: end jobs now, or run them again. Exit 0 when every job
 * changed, 1 when some could not (already ended, already pending).
 */
abstract class JobChangeCommand extends QueueCall {

    @Mixin
    OpIdOption operation;

    @Parameters(arity = "0..*", paramLabel = "ID", description = "The jobs.")
    List<String> ids = List.of();

    @picocli.CommandLine.Option(names = "--group", paramLabel = "GROUP", description = "Every job of this group"
            + " (cancel: pending and running; requeue: with --failed, the failed, timed-out and lost ones).")
    String group;

    abstract List<JobChange> apply(JobControl control, List<Long> jobs);

    /** The change applied to a whole group. */
    abstract List<JobChange> applyToGroup(Queue queue, String group);

    @Override
    List<Long> jobs() {
        List<Long> jobs = ids.stream().map(JobIds::parse).toList();
        if (group == null && jobs.isEmpty()) {
            throw new dev.nvidb.error.UsageException("no jobs given", "name job ids, or --group GROUP");
        }
        if (group != null && !jobs.isEmpty()) {
            throw new dev.nvidb.error.UsageException("give job ids or --group, not both");
        }
        return jobs;
    }

    @Override
    int run(Queue queue, Wiring wiring) {
        List<JobChange> changes = group != null ? applyToGroup(queue, group) : apply(queue.control(), jobs());
        boolean all = changes.stream().allMatch(JobChange::changed);
        answer(() -> new JsonCommands.JobsChanged(Json.SCHEMA_VERSION, all, changes),
                () -> changes.forEach(change -> context.err().println(Printable.of(change.message()))));
        return ExitCodes.okOr(all, ExitCodes.Outcome.FAILED);
    }

    @Command(name = "cancel", description = "Cancel jobs: pending ones never start, running ones are killed.")
    static final class Cancel extends JobChangeCommand implements HandedCommand.AsLine {
        List<JobChange> apply(JobControl control, List<Long> jobs) {
            return control.cancel(jobs);
        }

        List<JobChange> applyToGroup(Queue queue, String group) {
            return queue.groups().cancel(group);
        }
    }

    @Command(name = "requeue", description = "Run jobs again (a running one is killed first); the note is kept.")
    static final class Requeue extends JobChangeCommand {
        @picocli.CommandLine.Option(names = "--failed", description = "With --group: the group's failed, timed-out"
                + " and lost jobs.")
        boolean failed;

        List<JobChange> apply(JobControl control, List<Long> jobs) {
            if (failed) {
                throw new dev.nvidb.error.UsageException("--failed goes with --group",
                        "nvidb job requeue --group GROUP --failed");
            }
            return control.requeue(jobs);
        }

        List<JobChange> applyToGroup(Queue queue, String group) {
            if (!failed) {
                throw new dev.nvidb.error.UsageException("job requeue --group needs --failed",
                        "nvidb job requeue --group " + group + " --failed runs its failed jobs again");
            }
            return queue.groups().requeueFailed(group);
        }
    }
}
