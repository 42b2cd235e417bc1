package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import java.io.PrintWriter;
import java.util.Map;

/**
 * What every command needs from the outside world, passed in rather than read from statics
 * so tests can run commands in-process with their own environment and writers.
 *
 * @param environment the process environment (NVIDB_HOME, HOME, SSH_AUTH_SOCK, …)
 * @param out         stdout: data only
 * @param err         stderr: progress, warnings and errors
 * @param terminal    true when a person can be asked (a console is attached)
 * @param streams     the same stdout and stderr as bytes, and stdin, for what passes bytes
 *                    through unchanged (a forwarded command), and the terminal's controls
 */
public record Context(Map<String, String> environment, PrintWriter out, PrintWriter err, boolean terminal,
                      Streams streams) implements Wiring.Front {

    public Context {
        environment = Map.copyOf(environment);
    }

    /** A context whose byte streams write through {@code out} and {@code err} and whose stdin is empty. */
    public Context(Map<String, String> environment, PrintWriter out, PrintWriter err, boolean terminal) {
        this(environment, out, err, terminal, Streams.over(out, err));
    }
}
