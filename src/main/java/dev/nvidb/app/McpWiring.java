package dev.nvidb.app;

import dev.nvidb.keeper.Keeper;
import dev.nvidb.mcp.McpContext;
import dev.nvidb.mcp.McpServer;
import dev.nvidb.node.LocalHost;
import dev.nvidb.output.JsonKeeper;
import dev.nvidb.queue.Queue;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code nvidb mcp}: what the MCP server gets from the wiring (the opened queue, the doctor's
 * examination, the keeper's state, the submitter) and how it is served on the process's streams.
 */
public final class McpWiring {

    private McpWiring() {
    }

    /** The server's context: {@code queue} opened by the command, notices on the front end's stderr. */
    public static McpContext context(Wiring.Front front, Wiring wiring, Queue queue, String version) {
        return new McpContext(() -> queue, () -> Checkup.examine(front, null),
                () -> new Keeper(wiring.home(), front.environment()).state().map(JsonKeeper::of).orElse(null),
                front.environment().getOrDefault("USER", System.getProperty("user.name")) + "@" + LocalHost.shortName(),
                front.environment(), line -> {
                    front.err().println("nvidb: " + line);
                    front.err().flush();
                }, version);
    }

    /** Serves on {@code in} and {@code out} until stdin ends; whatever else prints to System.out meanwhile lands on {@code err}. */
    public static void serve(McpServer server, InputStream in, OutputStream out, OutputStream err) throws IOException {
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            server.serve(in, out);
        } finally {
            System.setOut(stdout);
        }
    }
}
