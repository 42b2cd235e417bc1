package dev.nvidb.tui.queue;

import dev.nvidb.keeper.KeeperState;
import dev.nvidb.queue.Queue;
import dev.nvidb.tui.TuiSession;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * {@code nvidb queue}: the queue screen. The terminal is taken first (so a run without one
 * fails before anything starts), then the worker threads, then the input loop on the
 * calling thread until {@code q} (0) or Ctrl-C (130).
 */
public final class QueueTui {

    private QueueTui() {
    }

    /**
     * @param queue     the opened queue
     * @param keeper    reads the keeper's state (null when none is installed)
     * @param refresh   how often automatic ticking ticks
     * @param automatic whether to tick automatically from the start
     * @param mouse     whether to turn mouse reporting on ({@code view.mouse})
     * @throws TuiSession.NotATerminal when there is no terminal
     */
    public static int run(Queue queue, Supplier<KeeperState> keeper, Duration refresh, boolean automatic, boolean mouse)
            throws IOException {
        Clock clock = Clock.systemUTC();
        try (TuiSession session = TuiSession.open(mouse);
             QueueWorker worker = new QueueWorker(queue, keeper, clock, refresh, automatic)) {
            worker.start();
            return session.run(new QueueScreen(worker, clock));
        }
    }
}
