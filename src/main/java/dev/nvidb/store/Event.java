package dev.nvidb.store;

import dev.nvidb.model.EventKind;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One entry of the append-only event log. Ids only grow, and an event is visible to readers
 * only together with every event of a smaller id, so {@code since id} never skips one.
 *
 * @param id     position in the log (the cursor)
 * @param at     when it happened
 * @param jobId  the job it is about, or null
 * @param node   the node it is about, or null
 * @param kind   what happened, as stored ({@code submitted}, {@code placed}, …; docs/schema.md): the key of an
 *               {@link EventKind}, or one this build does not know (kept as it is, see {@link #knownKind()})
 * @param detail JSON object text with the particulars, or null
 */
public record Event(long id, Instant at, Long jobId, String node, String kind, String detail) {

    /** The kind as an enum; empty when a newer nvidb wrote a kind this build does not know. */
    public Optional<EventKind> knownKind() {
        return EventKind.fromKey(kind);
    }

    /** True when this event is of {@code expected} kind. */
    public boolean is(EventKind expected) {
        return expected.key().equals(kind);
    }

    /** The detail as a map (empty when there is none). */
    @SuppressWarnings("unchecked")
    public Map<String, Object> detailMap() {
        return detail == null ? Map.of() : (Map<String, Object>) JsonText.read(detail);
    }
}
