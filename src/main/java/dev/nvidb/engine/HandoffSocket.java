package dev.nvidb.engine;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.Optional;

/**
 * The submit ticker's socket ({@code queue.db.ticker.sock}): while a ticker lingers after a
 * burst of submits, the next command lines of the burst are handed to it (the same {@code run}
 * requests a daemon serves, see {@link DaemonServer#serveCommands}) instead of each paying a
 * cold JVM. It answers nothing else: a ticker is no daemon, and commands never ask it for ticks.
 *
 * <p>Closing stops new connections first (the socket file goes), then waits for the lines
 * already accepted, so a ticker never exits under a command it took.
 */
public final class HandoffSocket implements AutoCloseable {

    private static final Duration DRAIN = Duration.ofSeconds(60);

    private final Path socket;
    private final ServerSocketChannel server;
    private final UserPrincipal owner;
    private final DaemonServer.Commands commands;
    private final Object monitor = new Object();
    private int inFlight;
    private boolean closed;
    private long served;

    private HandoffSocket(Path socket, ServerSocketChannel server, UserPrincipal owner, DaemonServer.Commands commands) {
        this.socket = socket;
        this.server = server;
        this.owner = owner;
        this.commands = commands;
    }

    /** The ticker's socket beside {@code database}. */
    public static Path path(Path database) {
        return database.toAbsolutePath().resolveSibling(database.getFileName() + ".ticker.sock");
    }

    /**
     * Serves {@code commands} on the socket beside {@code database}; empty when it cannot (a path
     * too long for a Unix socket): the ticker then only ticks. The caller holds the ticker's lock,
     * so a socket file found there was left by a ticker that was killed.
     */
    public static Optional<HandoffSocket> start(Path database, DaemonServer.Commands commands) {
        Path socket = path(database);
        try {
            Files.deleteIfExists(socket);
            ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                server.bind(UnixDomainSocketAddress.of(socket));
                Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
                HandoffSocket started = new HandoffSocket(socket, server, Files.getOwner(socket), commands);
                Thread acceptor = new Thread(started::accept, "ticker-socket");
                acceptor.setDaemon(true);
                acceptor.start();
                return Optional.of(started);
            } catch (IOException | RuntimeException e) {
                server.close();
                Files.deleteIfExists(socket);
                return Optional.empty();
            }
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    /** Command lines run here so far. */
    public long served() {
        synchronized (monitor) {
            return served;
        }
    }

    private void accept() {
        while (true) {
            SocketChannel client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            synchronized (monitor) {
                if (closed) {
                    closeQuietly(client);
                    return;
                }
                inFlight++;
            }
            Thread handler = new Thread(() -> answer(client), "ticker-client");
            handler.setDaemon(true);
            handler.start();
        }
    }

    private void answer(SocketChannel client) {
        try (client) {
            if (DaemonServer.fromOwner(client, owner) && DaemonWire.RUN.equals(DaemonServer.readLine(client))) {
                synchronized (monitor) {
                    served++;
                }
                commands.serve(client);
            }
        } catch (IOException | RuntimeException e) {
            // A client that went away: it runs the line itself unless the line was accepted.
        } finally {
            synchronized (monitor) {
                inFlight--;
                monitor.notifyAll();
            }
        }
    }

    /** Takes no more lines (the socket file goes first), then waits for those under way. */
    @Override
    public void close() {
        synchronized (monitor) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            // the next ticker replaces it
        }
        try {
            server.close();
        } catch (IOException e) {
            // nothing to do
        }
        long deadline = System.nanoTime() + DRAIN.toNanos();
        synchronized (monitor) {
            while (inFlight > 0 && System.nanoTime() < deadline) {
                try {
                    monitor.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}
