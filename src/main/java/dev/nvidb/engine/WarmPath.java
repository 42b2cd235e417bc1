package dev.nvidb.engine;

import dev.nvidb.model.TickReport;
import java.time.Duration;
import java.util.Optional;

/**
 * A command's way to the queue's daemon: asks it for a pass instead of ticking itself. The
 * daemon's socket and its client live in {@code daemon} ({@code daemon.DaemonLink}), which sits
 * above the engine; whoever opens the queue hands the engine one. Every failure reads as "no
 * daemon": the caller ticks itself, exactly as without one.
 */
public interface WarmPath {

    /** No daemon is ever asked: every tick runs in this process. */
    WarmPath NONE = new WarmPath() {
        @Override
        public boolean present() {
            return false;
        }

        @Override
        public boolean wake() {
            return false;
        }

        @Override
        public Optional<TickReport> sync(boolean current, Duration timeout) {
            return Optional.empty();
        }
    };

    /** True when a daemon may be serving (its socket exists): a cheap look before anything else. */
    boolean present();

    /** Asks the daemon for a pass soon without waiting for it; true when a daemon took the request. */
    boolean wake();

    /**
     * The report of the daemon's next tick (one that starts after this call; with
     * {@code current}, the one under way will do), waiting at most {@code timeout}; empty when no
     * daemon answered, or its pass failed.
     */
    Optional<TickReport> sync(boolean current, Duration timeout);
}
