package dev.nvidb.cli;

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
 */
public record Context(Map<String, String> environment, PrintWriter out, PrintWriter err, boolean terminal) {

    public Context {
        environment = Map.copyOf(environment);
    }
}
