package dev.nvidb.cli;

import dev.nvidb.daemon.DaemonRequest;
import java.util.List;

/**
 * A command the queue's daemon may run for this process ({@link Cli#handedRequest}): as a typed
 * {@link DaemonRequest} built from its parsed options, which the daemon gives back to the same
 * command ({@link #takeOver}) before running it.
 */
interface HandedCommand {

    /**
     * What the daemon would run for this command as parsed: its typed request, the words
     * {@code line} when only the line will do, or null when it must run here (it waits, reads
     * a file only this process can name, …).
     */
    DaemonRequest handed(Context context, List<String> line);

    /** In the daemon: takes {@code request}'s values as this command's options. */
    void takeOver(DaemonRequest request);

    /** The options every queue command has, as a request carries them. */
    static DaemonRequest.Options options(QueueOptions options) {
        return new DaemonRequest.Options(options.json, options.verbose, options.tick, options.noTick, options.local);
    }

    /** Sets {@code options} to a request's. */
    static void takeOver(QueueOptions options, DaemonRequest.Options given) {
        options.json = given.json();
        options.verbose = given.verbose();
        options.tick = given.tick();
        options.noTick = given.noTick();
        options.local = given.local();
    }

    /**
     * A short read or change the daemon runs from its words ({@link DaemonRequest.Line}, the
     * fallback): {@code job show}, {@code job why}, {@code job cancel}, {@code job result},
     * {@code queue nodes}, {@code queue alerts}, {@code queue events}.
     */
    interface AsLine {
    }
}
