package dev.nvidb.node;

import java.time.Duration;

/**
 * Runs one shell command line on a node: over SSH for a server, as a child process for the
 * local machine. Every later interaction with a node goes through this one call, so the
 * local node and the remote ones share all code above it.
 */
public interface NodeShell {

    /** Runs {@code command} with {@code sh -c} semantics, feeding {@code stdin} then closing it. */
    CommandResult run(String command, byte[] stdin, Duration timeout);

    /**
     * Starts {@code command} and leaves it running with its input and output open (the resident
     * agent of a daemon). A shell that cannot keep a command running answers empty, and its
     * callers run one command per request as before.
     */
    default java.util.Optional<AgentPipe> start(String command) {
        return java.util.Optional.empty();
    }

    /** Where the node is, for display: an address, or "local". */
    String address();
}
