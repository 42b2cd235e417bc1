package dev.nvidb.queue;

/**
 * How up to date a front end wants the queue before it reads it (tick-before-read): not at all
 * ({@code --no-tick}, the web page), when a tick is due (a read's default, {@code tick_min_interval}),
 * or now ({@code --tick}, the TUI's {@code t}). {@link Queue#refreshed} applies it.
 */
public enum Refresh {
    NONE, IF_DUE, NOW;

    /**
     * What a command's options ask for: {@code --no-tick} never ticks, {@code --tick} forces a
     * tick, and otherwise a command that reads ({@code byDefault}) ticks when one is due.
     */
    public static Refresh asked(boolean tick, boolean noTick, boolean byDefault) {
        return noTick || !byDefault && !tick ? NONE : tick ? NOW : IF_DUE;
    }
}
