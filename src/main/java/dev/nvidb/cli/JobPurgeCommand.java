package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.error.UsageException;
import dev.nvidb.model.JobState;
import dev.nvidb.output.Json;
import dev.nvidb.queue.Queue;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nvidb job purge [--state S]}: forget finished jobs (events and pending reaps stay). */
@Command(name = "purge", description = "Forget finished job records (all finished states, or --state).")
final class JobPurgeCommand extends QueueCall {

    @Mixin
    OpIdOption operation;

    @Option(names = "--state", split = ",", paramLabel = "STATE", description = "Only these finished states.")
    List<String> states = List.of();

    @Override
    public Integer call() {
        for (String state : states) {
            JobState parsed = JobLsCommand.parseState(state);
            if (!parsed.finished()) {
                throw new UsageException("only finished jobs can be purged, not " + parsed.key(),
                        "cancel it first: nvidb job cancel ID");
            }
        }
        return super.call();
    }

    @Override
    int run(Queue queue, Wiring wiring) {
        Set<JobState> wanted = EnumSet.noneOf(JobState.class);
        states.forEach(state -> wanted.add(JobLsCommand.parseState(state)));
        if (wanted.isEmpty()) {
            Arrays.stream(JobState.values()).filter(JobState::finished).forEach(wanted::add);
        }
        List<Long> purged = queue.control().purge(wanted);
        return answer(() -> new JsonCommands.Purged(Json.SCHEMA_VERSION, true, purged),
                () -> context.err().println("purged " + purged.size() + (purged.size() == 1 ? " job" : " jobs")));
    }
}
