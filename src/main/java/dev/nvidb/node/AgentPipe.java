package dev.nvidb.node;

import java.io.InputStream;
import java.io.OutputStream;

/**
 * A command left running on a node with its standard input and output open: the agent in
 * {@code --serve} mode, which answers one request line with one reply line for as long as the
 * pipe lives.
 */
public interface AgentPipe extends AutoCloseable {

    OutputStream stdin();

    InputStream stdout();

    /** The end of what the command wrote to standard error, for a failure's message. */
    String stderrTail();

    /** Ends the command (closing its input; a local one is also killed). */
    @Override
    void close();
}
