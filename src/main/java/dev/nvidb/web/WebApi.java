package dev.nvidb.web;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What the dashboard serves under {@code /api/} (docs/web.md), one route per path: the live
 * probes, the GPU log, the queue. Closing it stops the probes and closes the log and the queue.
 *
 * @param live            the Live view's probes
 * @param remoteByDefault whether {@code /api/live} without {@code remote=} includes the servers
 *                        ({@code basic.remote} or {@code --remote})
 * @param history         the History view's reads
 * @param queue           the Queue view's reads
 */
public record WebApi(LiveFeed live, boolean remoteByDefault, HistoryApi history, QueueApi queue) implements AutoCloseable {

    Map<String, Function<Parameters, Reply>> routes() {
        Map<String, Function<Parameters, Reply>> routes = new HashMap<>();
        routes.put("/api/live", parameters -> Reply.json(live.read(parameters.flag("remote", remoteByDefault)
                ? LiveFeed.Scope.WITH_SERVERS : LiveFeed.Scope.LOCAL)));
        routes.put("/api/history/sessions", parameters -> Reply.json(history.sessions()));
        routes.put("/api/history/samples", parameters -> Reply.json(history.samples(parameters)));
        routes.put("/api/history/samples.csv", parameters -> Reply.text(200, "text/csv; charset=utf-8",
                history.samplesCsv(parameters)));
        routes.put("/api/history/processes", parameters -> Reply.json(history.processes(parameters)));
        routes.put("/api/queue", parameters -> Reply.json(queue.read()));
        return routes;
    }

    @Override
    public void close() {
        live.close();
        history.close();
        queue.close();
    }
}
