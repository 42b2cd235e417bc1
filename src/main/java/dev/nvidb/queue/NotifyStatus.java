package dev.nvidb.queue;

import java.time.Instant;
import java.util.List;

/**
 * Alert delivery as {@code queue status} shows it: each channel {@code queue.notify} turns on.
 *
 * @param channels the channels on, in delivery order
 */
public record NotifyStatus(List<Channel> channels) {

    public NotifyStatus {
        channels = List.copyOf(channels);
    }

    /**
     * @param channel       {@code log}, {@code desktop} or {@code command}
     * @param started       whether a daemon has delivered on it yet (before that nothing is owed: no daemon runs)
     * @param owed          alerts it still owes
     * @param failing       of those, how many failed at least once
     * @param lastError     the latest failure of an alert still owed, or null
     * @param lastErrorAt   when it happened, or null
     * @param nextAttemptAt the earliest retry, or null
     */
    public record Channel(String channel, boolean started, long owed, long failing, String lastError,
                          Instant lastErrorAt, Instant nextAttemptAt) {
    }

    /** The channels with failures still owed. */
    public List<Channel> failing() {
        return channels.stream().filter(channel -> channel.failing() > 0).toList();
    }
}
