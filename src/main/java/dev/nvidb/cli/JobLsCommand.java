package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.daemon.DaemonRequest;
import dev.nvidb.error.UsageException;
import dev.nvidb.model.JobState;
import dev.nvidb.queue.JobSelection;
import dev.nvidb.queue.Queue;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nvidb job ls}: jobs, oldest first, with why each pending job waits. */
@Command(name = "ls", description = "List jobs (every pending job says why it waits).",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb job ls",
                "  nvidb job ls --active",
                "  nvidb job ls --state failed,lost -n 20 --json"})
final class JobLsCommand extends QueueCall implements HandedCommand {

    @Option(names = "--state", split = ",", paramLabel = "STATE",
            description = "Only these states: pending, running, completed, failed, cancelled, timeout, lost.")
    List<String> states = List.of();
    @Option(names = "--active", description = "Only pending and running jobs.")
    boolean active;
    @Option(names = "--node", description = "Only jobs placed on this node.")
    String node;
    @Option(names = {"-n", "--limit"}, paramLabel = "N", converter = NumberOption.Count.class, description = "Only the newest N jobs.")
    Integer limit;
    @Option(names = "--group", paramLabel = "GROUP", description = "Only the jobs of this group (a sweep or an array).")
    String group;

    @Override
    int run(Queue queue, Wiring wiring) {
        JobSelection query = new JobSelection(states(), node == null ? null : queue.nodeAdmin().resolve(node), limit, group);
        wiring.refresh(queue, options, true);
        if (options.json) {
            Render.stream(context, queue.reading(), query);   // any length, in bounded memory
        } else {
            Render.list(context, false, queue.reading().listJobs(query));
        }
        return ExitCodes.ok();
    }

    @Override
    public DaemonRequest handed(Context context, List<String> line, String directory) {
        return new DaemonRequest.ListJobs(HandedCommand.options(options), List.copyOf(states()), node, limit, group);
    }

    @Override
    public void takeOver(DaemonRequest request) {
        DaemonRequest.ListJobs list = (DaemonRequest.ListJobs) request;
        HandedCommand.takeOver(options, list.options());
        states = list.states().stream().map(JobState::name).toList();
        active = false;
        node = list.node();
        limit = list.limit();
        group = list.group();
    }

    private Set<JobState> states() {
        Set<JobState> wanted = EnumSet.noneOf(JobState.class);
        if (active) {
            wanted.add(JobState.PENDING);
            wanted.add(JobState.RUNNING);
        }
        for (String state : states) {
            wanted.add(parseState(state));
        }
        if (limit != null && limit < 0) {
            throw new UsageException("-n must be 0 or more, got " + limit);
        }
        return wanted;
    }

    static JobState parseState(String text) {
        try {
            return JobState.valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException("unknown job state '" + text + "'",
                    "states: pending, running, completed, failed, cancelled, timeout, lost");
        }
    }
}
