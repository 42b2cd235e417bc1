package dev.nvidb.web;

import dev.nvidb.error.UsageException;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.URI;
import java.util.Map;
import java.util.function.Function;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The dashboard's HTTP server: Jetty on one address and port, every request through the
 * {@link AccessGuard} first, then the {@link Dashboard}'s routes. A port in use or an address this
 * machine does not have is one usage line, never a stack trace.
 */
public final class WebServer implements AutoCloseable {

    private final Server server;
    private final ServerConnector connector;
    private final String host;
    private final AccessToken token;

    private WebServer(Server server, ServerConnector connector, String host, AccessToken token) {
        this.server = server;
        this.connector = connector;
        this.host = host;
        this.token = token;
    }

    /**
     * Starts serving {@code api} on {@code host}:{@code port} (0: any free port) behind {@code token}.
     *
     * @throws UsageException when the port is in use or the address cannot be bound
     */
    public static WebServer start(String host, int port, AccessToken token, WebApi api) {
        return start(host, port, token, api.routes());
    }

    static WebServer start(String host, int port, AccessToken token, Map<String, Function<Parameters, Reply>> api) {
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("web");
        threads.setDaemon(true);
        Server server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
        server.setHandler(new AccessGuard(token, new Dashboard(api)));
        try {
            server.start();
        } catch (Exception e) {
            stopQuietly(server);
            throw bindFailure(host, port, e);
        }
        return new WebServer(server, connector, host, token);
    }

    private static UsageException bindFailure(String host, int port, Exception failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof BindException bind) {
                String why = bind.getMessage() == null ? "" : bind.getMessage();
                if (why.contains("in use")) {
                    return new UsageException("port " + port + " on " + host + " is in use; pick another with --port N");
                }
                return new UsageException("cannot listen on " + host + " port " + port + ": " + why,
                        "--bind takes an address of this machine, such as 127.0.0.1 or 0.0.0.0");
            }
        }
        return new UsageException("cannot listen on " + host + " port " + port + ": " + failure.getMessage());
    }

    /** The port served (the one chosen when 0 was asked). */
    public int port() {
        return connector.getLocalPort();
    }

    /**
     * The address to open, with the token: on the bound address, or on 127.0.0.1 when bound to
     * every address.
     */
    public URI url() {
        String shown = host;
        try {
            if (InetAddress.getByName(host).isAnyLocalAddress()) {
                shown = "127.0.0.1";
            }
        } catch (IOException e) {
            // a name: shown as given
        }
        if (shown.contains(":") && !shown.startsWith("[")) {
            shown = "[" + shown + "]";
        }
        return URI.create("http://" + shown + ":" + port() + "/?" + AccessGuard.QUERY + "=" + token.value());
    }

    /** Waits until the server stops (by {@link #close} from another thread). */
    public void join() throws InterruptedException {
        server.join();
    }

    /** Stops serving: open requests are cut, the port is free again. */
    @Override
    public void close() {
        stopQuietly(server);
    }

    private static void stopQuietly(Server server) {
        try {
            server.stop();
        } catch (Exception e) {
            // stopping is best effort: the process is ending or the server never started
        }
    }
}
