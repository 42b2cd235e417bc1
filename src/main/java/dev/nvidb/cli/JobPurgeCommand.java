package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.error.UsageException;
import dev.nvidb.model.JobState;
import dev.nvidb.output.Json;
import dev.nvidb.queue.Queue;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nvidb job purge [--state S]}: forget finished jobs (events and pending reaps stay). */
@Command(name = "purge", description = "Forget finished job records (all finished states, or --state).")
final class JobPurgeCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    QueueOptions options;

    @Mixin
    OpIdOption operation;

    @Option(names = "--state", split = ",", paramLabel = "STATE", description = "Only these finished states.")
    List<String> states = List.of();

    JobPurgeCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        Set<JobState> wanted = EnumSet.noneOf(JobState.class);
        for (String state : states) {
            JobState parsed = JobLsCommand.parseState(state);
            if (!parsed.finished()) {
                throw new UsageException("only finished jobs can be purged, not " + parsed.key(),
                        "cancel it first: nvidb job cancel ID");
            }
            wanted.add(parsed);
        }
        if (wanted.isEmpty()) {
            for (JobState state : JobState.values()) {
                if (state.finished()) {
                    wanted.add(state);
                }
            }
        }
        try (Wiring wiring = new Wiring(context)) {
            Queue queue = wiring.queue(options);
            List<Long> purged = queue.control().purge(wanted);
            if (options.json) {
                context.out().println(Json.write(new JsonCommands.Purged(Json.SCHEMA_VERSION, true, purged)));
            } else {
                context.err().println("purged " + purged.size() + (purged.size() == 1 ? " job" : " jobs"));
            }
            return ExitCodes.ok();
        }
    }
}
