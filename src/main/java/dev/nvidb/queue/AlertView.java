package dev.nvidb.queue;

import java.time.Instant;

/**
 * An alert as front ends show it.
 *
 * @param id             the alert (what {@code queue ack} takes)
 * @param at             when it was raised
 * @param key            what makes it unique ({@code job_failed:42:1})
 * @param kind           its class ({@code job_failed}, {@code node_down}, …)
 * @param severity       {@code info}, {@code warning} or {@code error}
 * @param jobId          the job it is about, or null
 * @param node           the node it is about, or null
 * @param message        one line for people
 * @param detail         more text (a log tail), or null
 * @param acknowledgedAt when a person acknowledged it, or null while open
 */
public record AlertView(long id, Instant at, String key, String kind, String severity, Long jobId, String node,
                        String message, String detail, Instant acknowledgedAt) {
}
