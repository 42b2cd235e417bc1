package dev.nvidb.output;

import dev.nvidb.queue.EventView;
import java.util.List;
import java.util.Map;

/**
 * {@code queue events --json}: events after the cursor, and the cursor to pass next time
 * ({@code next_since}: the last id returned, or the given cursor when there were none).
 */
public record JsonEvents(int schemaVersion, boolean ok, long nextSince, List<JsonEvent> events) {

    /** One event; {@code detail} is an object whose fields depend on {@code kind}. */
    public record JsonEvent(long id, java.math.BigDecimal at, Long jobId, String node, String kind, Map<String, Object> detail) {
    }

    /**
     * @param since  the cursor the client gave
     * @param lastId the newest event id in the log (0 when empty): a cursor past it is brought
     *               back, so a client that stores {@code next_since} never skips what comes next
     */
    public static JsonEvents of(List<EventView> events, long since, long lastId) {
        long next = events.isEmpty() ? Math.min(since, lastId) : events.get(events.size() - 1).id();
        return new JsonEvents(Json.SCHEMA_VERSION, true, next, events.stream().map(event -> new JsonEvent(event.id(),
                JsonJob.seconds(event.at()), event.jobId(), event.node(), event.kind(), Json.readObject(event.detail()))).toList());
    }
}
