package dev.nvidb.cli;

import dev.nvidb.app.WebDashboard;
import dev.nvidb.app.Wiring;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nvidb web}: serves the dashboard (Live, History, Queue) on 127.0.0.1:8501 behind a random
 * token until Ctrl-C (exit 130). Prints the address to open, token included, on stdout.
 */
@Command(name = "web", description = "Serve the dashboard (live GPUs, GPU history, the queue) in a browser.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb web                             http://127.0.0.1:8501/?token=...",
                "  nvidb web --remote --port 8502        the configured servers too, another port",
                "  nvidb web --bind 0.0.0.0              reachable from other machines (it warns)",
                "",
                "Every request needs the token the command prints; Ctrl-C stops the server. See docs/web.md."})
class WebCommand extends ContextCall {

    static final int DEFAULT_PORT = 8501;
    static final String DEFAULT_BIND = "127.0.0.1";

    @Option(names = "--port", paramLabel = "N", converter = NumberOption.Port.class,
            description = "Port to listen on (default 8501).")
    int port = DEFAULT_PORT;

    @Option(names = "--db-path", paramLabel = "FILE", description = "The GPU log to browse (default: log.db_path, ~/.nvidb/gpu_log.db).")
    String dbPath;

    @Option(names = "--remote", negatable = true,
            description = "Live view includes the servers in config.yml by default (default: basic.remote).")
    Boolean remote;

    @Option(names = "--bind", paramLabel = "ADDR",
            description = "Address to listen on (default 127.0.0.1; any other is reachable from elsewhere).")
    String bind = DEFAULT_BIND;

    @Option(names = "--verbose", description = "Print stack traces on failure.")
    boolean verbose;

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            wiring.withoutPrompts();
            // `nvidb --remote web` reaches here as `web --remote` (Cli moves the option).
            new WebDashboard(context, context.out(), wiring).serve(bind, port, dbPath, remote);
            return ExitCodes.ok();
        }
    }
}
