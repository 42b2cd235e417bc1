package dev.nvidb.queue;

import java.time.Instant;
import java.util.List;

/**
 * What one daemon pass delivered, channel by channel.
 *
 * @param channels each channel on, in delivery order
 */
public record NotifyPass(List<Channel> channels) {

    public NotifyPass {
        channels = List.copyOf(channels);
    }

    /**
     * One channel in one pass.
     *
     * @param channel       {@code log}, {@code desktop} or {@code command}
     * @param delivered     alerts delivered in this pass
     * @param notOwed       alerts found not owed in this pass (below {@code min_severity}, acknowledged before delivery)
     * @param backlog       open alerts not owed because they were raised over a day before the channel's first
     *                      pass (only on that pass; 0 otherwise)
     * @param failed        failed attempts in this pass (0 or 1: a channel stops for the pass at its first failure)
     * @param error         the failure, or null
     * @param owed          alerts still owed after the pass
     * @param nextAttemptAt the earliest retry of a failed alert, or null
     */
    public record Channel(String channel, int delivered, int notOwed, long backlog, int failed, String error, long owed,
                          Instant nextAttemptAt) {
    }

    public int delivered() {
        return channels.stream().mapToInt(Channel::delivered).sum();
    }

    public int failed() {
        return channels.stream().mapToInt(Channel::failed).sum();
    }
}
