package dev.nvidb.app;

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
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * {@code nvidb web}: wires the dashboard's feeds to the wiring (live probes of this machine or the
 * servers, the GPU log, the queue read without a tick, the keeper's state) and serves it until
 * Ctrl-C or an interrupt (130), printing the address to open on stdout and notes on stderr.
 */
public final class WebDashboard {

    private final Wiring.Front context;
    private final PrintWriter out;
    private final Wiring wiring;

    public WebDashboard(Wiring.Front context, PrintWriter out, Wiring wiring) {
        this.context = context;
        this.out = out;
        this.wiring = wiring;
    }

    /**
     * Serves on {@code bind}:{@code port} the GPU log {@code dbPath} (null: {@code log.db_path}); the
     * live view with the servers when {@code remote} says so (null: {@code basic.remote}).
     */
    public void serve(String bind, int port, String dbPath, Boolean remote) {
        NvidbConfig config = wiring.config();
        boolean withServers = remote != null ? remote : config.basic().remote();
        Wiring.QueueChoice noTick = new ReadOnlyChoice();
        LiveFeed live = new LiveFeed(scope -> nodes(config, scope), wiring.nodeTimeout(), config.queue().jobRoot());
        QueueApi queue = new QueueApi(wiring.databaseFile(noTick), () -> wiring.queue(noTick),
                () -> JsonKeeper.of(new Keeper(wiring.home(), context.environment()).state().orElse(null)));
        HistoryApi history = new HistoryApi(dbPath != null ? config.home().expand(dbPath) : config.log().dbPath());
        try (WebApi api = new WebApi(live, withServers, history, queue)) {
            WebServer server = WebServer.start(bind, port, AccessToken.random(), api);
            // Once it listens: a port in use or an address not here stays the one line it is.
            warnIfReachable(bind);
            if (history.exists()) {
                history.problem().ifPresent(problem -> context.err().println("nvidb: warning: History cannot read the"
                        + " GPU log: " + problem));
            } else {
                context.err().println("nvidb: note: no GPU log at " + config.home().display(history.file())
                        + " yet; History shows it once 'nvidb log' has run");
            }
            serve(server, bind);
        }
    }

    private List<dev.nvidb.node.Node> nodes(NvidbConfig config, LiveFeed.Scope scope) {
        synchronized (wiring) {
            return wiring.monitorNodes(scope == LiveFeed.Scope.WITH_SERVERS);
        }
    }

    /** Serves until Ctrl-C (the JVM's exit, 130, after the hook stops the server) or an interrupt (130 too). */
    private void serve(WebServer server, String bind) {
        Thread stop = new Thread(server::close, "web-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        try {
            out.println(server.url());
            out.flush();
            context.err().println("nvidb: serving the dashboard on " + bind + " port " + server.port()
                    + "; open the address above (Ctrl-C stops it)");
            context.err().flush();
            server.join();
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

    private void warnIfReachable(String bind) {
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
