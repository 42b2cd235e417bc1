package dev.nvidb.engine;

import java.util.function.Consumer;

/**
 * Who is ticking, for the others: the command this client runs (recorded with its tick lease,
 * so a client that waits can say whose tick it waits for) and where this client's own notices
 * go while it waits for another's tick (a front end's stderr; never its data output).
 *
 * @param command what this client runs, e.g. {@code nvidb job ls}; may be empty
 * @param notices one line at a time, e.g. "waiting for the tick of pid 1234 (nvidb job ls, started 3 s ago)"
 */
public record TickClient(String command, Consumer<String> notices) {

    public TickClient {
        command = command == null ? "" : command;
        notices = notices == null ? line -> { } : notices;
    }

    /** A client that says nothing (tests, in-process use). */
    public static TickClient quiet() {
        return new TickClient("", null);
    }
}
