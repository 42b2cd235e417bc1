package dev.nvidb.tui.queue;

import dev.nvidb.keeper.KeeperState;
import dev.nvidb.queue.QueueStatus;
import java.time.Instant;

/**
 * The queue as the screen shows it at one moment, read by {@link QueueWorker} off the input
 * thread.
 *
 * @param status       the queue in one read, or null before the first read succeeded
 * @param keeper       the keeper's state, or null when none is installed
 * @param readAt       when {@code status} was read
 * @param readError    why the last read failed, or null
 * @param tickingSince when the tick in flight started, or null when none runs
 * @param tickError    why the last tick this screen ran failed, or null
 */
record QueueData(QueueStatus status, KeeperState keeper, Instant readAt, String readError, Instant tickingSince,
                 String tickError) {

    static QueueData empty() {
        return new QueueData(null, null, null, null, null, null);
    }

    QueueData withRead(QueueStatus newStatus, KeeperState newKeeper, Instant at) {
        return new QueueData(newStatus, newKeeper, at, null, tickingSince, tickError);
    }

    QueueData withReadError(String error) {
        return new QueueData(status, keeper, readAt, error, tickingSince, tickError);
    }

    QueueData withTick(Instant since, String error) {
        return new QueueData(status, keeper, readAt, readError, since, error);
    }
}
