package dev.nvidb.queue;

import dev.nvidb.error.InterruptedByUser;
import java.time.Duration;

/**
 * How a loop of this package waits between rounds (polling a job, following a log, ticking
 * again). Front ends use {@link #sleeping()}; tests pass one that advances a clock or counts
 * rounds, so the loops run without real sleeps.
 */
@FunctionalInterface
public interface Pause {

    /** Waits {@code duration}; an interrupt ends the command (exit 130). */
    void pause(Duration duration);

    /** A real sleep; the thread's interrupt flag is restored before {@link InterruptedByUser} is thrown. */
    static Pause sleeping() {
        return duration -> {
            try {
                Thread.sleep(duration.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedByUser("interrupted while waiting", e);
            }
        };
    }
}
