package dev.nvidb.tui.queue;

import java.time.Duration;
import java.time.Instant;

/**
 * Everything one frame of the queue screen is drawn from.
 *
 * @param state     where the user is
 * @param data      the queue as last read
 * @param log       the followed job's log, or null
 * @param message   the last action's line, or null
 * @param automatic whether the screen ticks by itself
 * @param refresh   how often it does
 * @param now       the time to measure ages against
 */
record QueueView(QueueScreenState state, QueueData data, LogData log, Message message, boolean automatic,
                 Duration refresh, Instant now) {
}
