package dev.nvidb.cli;

import dev.nvidb.daemon.DaemonRequest;
import java.util.List;

/**
 * A command the queue's daemon may run for a client ({@link Cli#handedRequest}): the daemon's
 * parser reads the client's words into this command, which makes them its typed
 * {@link DaemonRequest}; the daemon then gives the request to a fresh instance of the same
 * command ({@link #takeOver}) and runs it.
 */
interface HandedCommand {

    /**
     * What the daemon runs for this command as parsed from a client in {@code directory}: its
     * typed request, the words {@code line} when only the line will do, or null when it must
     * run in the client (it waits with agents of its own, …).
     */
    DaemonRequest handed(Context context, List<String> line, String directory);

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
