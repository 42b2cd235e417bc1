package dev.nvidb.alerts;

import dev.nvidb.store.Alert;
import java.io.IOException;
import java.time.Duration;

/**
 * One way of delivering an alert ({@code log}, {@code desktop}, {@code command}). A delivery
 * either returns (delivered) or throws with one line saying why not (the alert stays owed and
 * is tried again after a back-off).
 */
public interface Channel {

    /** The channel's name as stored in {@code alert_deliveries.channel}. */
    String name();

    /** The longest one delivery may take; a claim lasts this long plus a margin. */
    Duration timeout();

    /**
     * Delivers {@code alert}, whose document (one line of JSON, see {@link AlertDocument}) is
     * {@code document}.
     *
     * @throws IOException the delivery failed; its message is the reason, one line
     */
    void deliver(Alert alert, String document) throws IOException;
}
