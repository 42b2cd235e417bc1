package dev.nvidb.store;

import java.time.Instant;
import java.util.Map;

/**
 * One entry of the append-only event log. Ids only grow, and an event is visible to readers
 * only together with every event of a smaller id, so {@code since id} never skips one.
 *
 * @param id     position in the log (the cursor)
 * @param at     when it happened
 * @param jobId  the job it is about, or null
 * @param node   the node it is about, or null
 * @param kind   what happened ({@code submitted}, {@code placed}, {@code completed}, …; docs/schema.md)
 * @param detail JSON object text with the particulars, or null
 */
public record Event(long id, Instant at, Long jobId, String node, String kind, String detail) {

    /** The detail as a map (empty when there is none). */
    @SuppressWarnings("unchecked")
    public Map<String, Object> detailMap() {
        return detail == null ? Map.of() : (Map<String, Object>) JsonText.read(detail);
    }
}
