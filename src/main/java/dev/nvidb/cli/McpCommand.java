package dev.nvidb.cli;

import dev.nvidb.app.McpWiring;
import dev.nvidb.app.Wiring;
import dev.nvidb.mcp.McpServer;
import java.io.IOException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code nvidb mcp}: serves the queue to an AI agent over the Model Context Protocol on stdin and
 * stdout until the client closes stdin (exit 0). The queue opens first, so a configuration that
 * does not load is one line on stderr before any protocol frame (docs/mcp.md).
 */
@Command(name = "mcp", description = {"Serve the queue to an AI agent: a Model Context Protocol server on stdin/stdout.",
        "",
        "Tools submit, wait, logs, result, status, list_jobs, show_job, why, cancel, requeue, nodes, groups,"
                + " alerts, ack and doctor answer the documents of the matching --json commands; resources give the"
                + " GPU snapshot and a job's output. It runs until the client closes stdin. Start it from the agent's"
                + " MCP configuration, not by hand."},
        footerHeading = "%nExamples:%n",
        footer = {"  claude mcp add nvidb -- nvidb mcp          Claude Code",
                "  nvidb mcp --db-path ~/lab/queue.db          another queue database",
                "",
                "Configuration snippets for agent clients: docs/mcp.md."})
final class McpCommand extends ContextCall {

    @Option(names = "--db-path", paramLabel = "FILE", description = "Use this queue database instead of $NVIDB_HOME/queue.db.")
    String dbPath;

    @Option(names = "--local", description = "Use this machine's queue even when queue.yml names a remote queue host.")
    boolean local;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        QueueOptions options = new QueueOptions();
        options.dbPath = dbPath;
        options.local = local;
        options.command = spec;
        try (Wiring wiring = new Wiring(context)) {
            wiring.withoutPrompts(); // stdin is the protocol: a key that needs a passphrase fails with a message
            McpServer server = new McpServer(McpWiring.context(context, wiring, wiring.queue(options), VersionProvider.version()));
            context.out().flush();
            McpWiring.serve(server, context.streams().in(), context.streams().out(), context.streams().err());
            return ExitCodes.ok();
        }
    }
}
