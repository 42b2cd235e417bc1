package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.EventText;
import dev.nvidb.output.JsonEvents;
import dev.nvidb.queue.EventView;
import dev.nvidb.queue.Queue;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nvidb queue events [--since ID] [--job ID]}: replay what happened, by cursor. */
@Command(name = "events", description = "Replay queue events after a cursor (--since), for catching up.")
final class QueueEventsCommand extends QueueCall.Read implements HandedCommand.AsLine {

    @Option(names = "--since", paramLabel = "ID", converter = NumberOption.Position.class, description = "Only events after this event id (default: all).")
    long since;
    @Option(names = "--job", paramLabel = "ID", description = "Only events about this job.")
    String job;
    @Option(names = {"-n", "--limit"}, paramLabel = "N", converter = NumberOption.PositiveCount.class, description = "At most N events (default 1000).")
    int limit = 1000;

    @Override
    public Integer call() {
        if (job != null) {
            JobIds.parse(job);
        }
        return super.call();
    }

    @Override
    int run(Queue queue, Wiring wiring) {
        List<EventView> events = queue.reading().events(since, job == null ? null : JobIds.parse(job), Math.max(1, limit));
        return answer(() -> JsonEvents.of(events, since, queue.reading().lastEventId()),
                () -> events.forEach(event -> context.out().println(EventText.line(event))));
    }
}
