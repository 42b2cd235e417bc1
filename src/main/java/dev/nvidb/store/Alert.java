package dev.nvidb.store;

import dev.nvidb.model.AlertKind;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Something a person should look at (a job failed, a node is down). Raised at most once per
 * {@code key}; open until acknowledged.
 *
 * @param id             row id (0 before it is stored)
 * @param at             when it was raised
 * @param key            what makes it unique ({@code job-failed:42:1}); raising the same key again does nothing
 * @param kind           its class as stored ({@code job_failed}, {@code node_down}, …): the key of an
 *                       {@link AlertKind}, or one this build does not know (see {@link #knownKind()})
 * @param severity       {@code info}, {@code warning} or {@code error} (as the alert table of the seed)
 * @param jobId          the job it is about, or null
 * @param node           the node it is about, or null
 * @param message        one line for people
 * @param detail         more text (a log tail), or null
 * @param acknowledgedAt when a person acknowledged it, or null while open
 */
public record Alert(long id, Instant at, String key, String kind, String severity, Long jobId, String node,
                    String message, String detail, Instant acknowledgedAt) {

    public Alert {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(message, "message");
    }

    /** A new alert, not yet stored. */
    public static Alert raise(Instant at, String key, AlertKind kind, String severity, Long jobId, String node,
                              String message, String detail) {
        return new Alert(0, at, key, kind.key(), severity, jobId, node, message, detail, null);
    }

    /** The kind as an enum; empty when a newer nvidb raised a kind this build does not know. */
    public Optional<AlertKind> knownKind() {
        return AlertKind.fromKey(kind);
    }

    public boolean open() {
        return acknowledgedAt == null;
    }
}
