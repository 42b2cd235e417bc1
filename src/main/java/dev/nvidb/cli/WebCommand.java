package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.keeper.Keeper;
import dev.nvidb.output.JsonKeeper;
import dev.nvidb.web.AccessToken;
import dev.nvidb.web.HistoryApi;
import dev.nvidb.web.LiveFeed;
import dev.nvidb.web.QueueApi;
import dev.nvidb.web.WebApi;
import dev.nvidb.web.WebServer;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.Callable;
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
class WebCommand implements Callable<Integer> {

    static final int DEFAULT_PORT = 8501;
    static final String DEFAULT_BIND = "127.0.0.1";

    private final Context context;

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

    /** Where the command's messages go (stderr). */
    java.io.PrintWriter err() {
        return context.err();
    }

    WebCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            wiring.withoutPrompts();
            NvidbConfig config = wiring.config();
            // `nvidb --remote web` reaches here as `web --remote` (Cli moves the option).
            boolean withServers = remote != null ? remote : config.basic().remote();
            QueueOptions queueOptions = new QueueOptions();
            queueOptions.noTick = true;
            LiveFeed live = new LiveFeed(scope -> nodes(wiring, config, scope), wiring.nodeTimeout(),
                    config.queue().jobRoot());
            QueueApi queue = new QueueApi(wiring.databaseFile(queueOptions), () -> wiring.queue(queueOptions),
                    () -> JsonKeeper.of(new Keeper(wiring.home(), context.environment()).state().orElse(null)));
            HistoryApi history = new HistoryApi(dbPath != null ? config.home().expand(dbPath) : config.log().dbPath());
            try (WebApi api = new WebApi(live, withServers, history, queue)) {
                WebServer server = WebServer.start(bind, port, AccessToken.random(), api);
                // Once it listens: a port in use or an address not here stays the one line it is.
                warnIfReachable();
                if (history.exists()) {
                    history.problem().ifPresent(problem -> context.err().println("nvidb: warning: History cannot read the"
                            + " GPU log: " + problem));
                } else {
                    context.err().println("nvidb: note: no GPU log at " + config.home().display(history.file())
                            + " yet; History shows it once 'nvidb log' has run");
                }
                return serve(server);
            }
        }
    }

    private static List<dev.nvidb.node.Node> nodes(Wiring wiring, NvidbConfig config, LiveFeed.Scope scope) {
        synchronized (wiring) {
            return scope == LiveFeed.Scope.WITH_SERVERS
                    ? wiring.nodes().nodes(config.basic().includeLocal(), null, config.monitorServers())
                    : List.of(wiring.nodes().local(null));
        }
    }

    /** Serves until Ctrl-C (the JVM's exit, 130, after the hook stops the server) or an interrupt (130 too). */
    private int serve(WebServer server) {
        Thread stop = new Thread(server::close, "web-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        try {
            context.out().println(server.url());
            context.out().flush();
            context.err().println("nvidb: serving the dashboard on " + bind + " port " + server.port()
                    + "; open the address above (Ctrl-C stops it)");
            context.err().flush();
            server.join();
            return ExitCodes.ok();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedByUser("interrupted: the dashboard stopped", e);
        } finally {
            server.close();
            try {
                Runtime.getRuntime().removeShutdownHook(stop);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook is running or ran
            }
        }
    }

    private void warnIfReachable() {
        boolean loopback;
        try {
            loopback = InetAddress.getByName(bind).isLoopbackAddress();
        } catch (UnknownHostException e) {
            loopback = false;
        }
        if (!loopback) {
            context.err().println("nvidb: warning: listening on " + bind + ", not only this machine: whoever reaches it"
                    + " and has the token can read the GPUs, the GPU log and the queue (plain HTTP, no TLS)");
        }
    }
}
