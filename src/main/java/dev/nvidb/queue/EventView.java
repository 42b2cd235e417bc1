package dev.nvidb.queue;

import java.time.Instant;

/**
 * One entry of the queue's event log as front ends show it.
 *
 * @param id     position in the log (the cursor for {@code queue events --since})
 * @param at     when it happened
 * @param jobId  the job it is about, or null
 * @param node   the node it is about, or null
 * @param kind   what happened ({@code submitted}, {@code placed}, {@code completed}, …; docs/schema.md)
 * @param detail JSON object text with the particulars, or null
 */
public record EventView(long id, Instant at, Long jobId, String node, String kind, String detail) {
}
