package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.EventText;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonEvents;
import dev.nvidb.queue.EventView;
import dev.nvidb.queue.Queue;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nvidb queue events [--since ID] [--job ID]}: replay what happened, by cursor. */
@Command(name = "events", description = "Replay queue events after a cursor (--since), for catching up.")
final class QueueEventsCommand implements Callable<Integer>, HandedCommand.AsLine {

    private final Context context;

    @Mixin
    QueueOptions options;

    @Option(names = "--since", paramLabel = "ID", converter = NumberOption.Position.class, description = "Only events after this event id (default: all).")
    long since;
    @Option(names = "--job", paramLabel = "ID", description = "Only events about this job.")
    String job;
    @Option(names = {"-n", "--limit"}, paramLabel = "N", converter = NumberOption.PositiveCount.class, description = "At most N events (default 1000).")
    int limit = 1000;

    QueueEventsCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        Long jobId = job == null ? null : JobIds.parse(job);
        try (Wiring wiring = new Wiring(context)) {
            Queue queue = wiring.queue(options);
            wiring.refresh(queue, options, true);
            List<EventView> events = queue.reading().events(since, jobId, Math.max(1, limit));
            if (options.json) {
                context.out().println(Json.write(JsonEvents.of(events, since, queue.reading().lastEventId())));
            } else {
                events.forEach(event -> context.out().println(EventText.line(event)));
            }
            return ExitCodes.ok();
        }
    }
}
