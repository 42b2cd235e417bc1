package dev.nvidb.daemon;

import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.model.TickReport;
import dev.nvidb.queue.Passes;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * The daemon's side of the warm path: a Unix socket beside the queue database (mode 0600,
 * answering only its owner) through which a command asks the daemon for a pass instead of
 * opening SSH connections of its own. The daemon's loop waits on {@link #awaitRequest} between
 * passes and tells this server when a pass starts and when its tick has ended; a command that
 * asked is answered with that tick's report.
 *
 * <p>One daemon serves a database: the server holds a lock file for its life (the kernel drops
 * it when the process dies), and only the holder removes a socket left by a killed daemon.
 */
public final class DaemonServer implements AutoCloseable {

    private static final int MAX_REQUEST = 64;

    private final Path database;
    private final Path socket;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final ServerSocketChannel server;
    private final UserPrincipal owner;
    private final Thread acceptor;

    private volatile Commands commands;

    private final Object monitor = new Object();
    private long requested;
    private long started;
    private long ticked;
    private TickReport lastReport;
    private boolean closed;
    /** Handed command lines under way ({@code run}): a closing server lets them finish. */
    private int running;
    private Thread shutdownHook;

    private DaemonServer(Path database, Path socket, FileChannel lockChannel, FileLock lock, ServerSocketChannel server,
                         UserPrincipal owner) {
        this.database = database;
        this.socket = socket;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.server = server;
        this.owner = owner;
        this.acceptor = new Thread(this::accept, "daemon-socket");
        this.acceptor.setDaemon(true);
    }

    /**
     * Starts serving {@code database}; empty when another daemon already serves it or the
     * socket cannot be made here (a path too long for a Unix socket, a file system without
     * them): the daemon then still ticks on its timer, and commands tick for themselves.
     */
    public static Optional<DaemonServer> start(Path database) {
        return start(database, null);
    }

    /**
     * As {@link #start(Path)}, serving command lines with {@code commands} from the first
     * connection on (none when null): a client that connects the moment the socket appears is
     * never told this daemon does not serve them.
     */
    public static Optional<DaemonServer> start(Path database, Commands commands) {
        Path absolute = database.toAbsolutePath();
        Path socket = DaemonWire.socket(absolute);
        FileChannel lockChannel = null;
        try {
            lockChannel = FileChannel.open(DaemonWire.lock(absolute), Set.of(StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            FileLock lock = lockChannel.tryLock();
            if (lock == null) {
                lockChannel.close();
                return Optional.empty();
            }
            Files.deleteIfExists(socket); // left by a daemon that was killed: we hold the lock now
            ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                server.bind(UnixDomainSocketAddress.of(socket));
                Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
                UserPrincipal owner = Files.getOwner(socket);
                DaemonServer started = new DaemonServer(absolute, socket, lockChannel, lock, server, owner);
                started.commands = commands;
                started.acceptor.start();
                // A daemon stopped by a signal (the keeper's stop) takes its socket with it.
                Thread cleanup = new Thread(started::close, "daemon-socket-cleanup");
                started.shutdownHook = cleanup;
                Runtime.getRuntime().addShutdownHook(cleanup);
                return Optional.of(started);
            } catch (IOException | RuntimeException e) {
                server.close();
                Files.deleteIfExists(socket);
                throw e;
            }
        } catch (IOException | OverlappingFileLockException | UnsupportedOperationException e) {
            closeQuietly(lockChannel);
            return Optional.empty();
        }
    }

    /**
     * Serves command lines handed to this daemon ({@code run} requests) with {@code handler};
     * until this is called, such a request is refused and the command runs in its own process.
     */
    public void serveCommands(Commands handler) {
        this.commands = handler;
    }

    /** Runs one command line handed over a connection: reads the rest of the request, writes the answer. */
    @FunctionalInterface
    public interface Commands {
        void serve(SocketChannel connection) throws IOException;
    }

    /** True until {@link #close}. */
    boolean open() {
        synchronized (monitor) {
            return !closed;
        }
    }

    /**
     * Waits until a command asks for a pass or {@code timeout} passes; true when asked. An
     * interrupt (Ctrl-C) ends the daemon.
     */
    public boolean awaitRequest(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (monitor) {
            while (requested <= started && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    monitor.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedByUser("interrupted between daemon passes", e);
                }
            }
            return requested > started;
        }
    }

    /** This server as the watch of a pass's tick: it answers the commands that asked for that pass. */
    public Passes.TickWatch tickWatch() {
        return new Passes.TickWatch() {
            @Override
            public long starting() {
                return passStarting();
            }

            @Override
            public void ended(long pass, TickReport report) {
                tickEnded(pass, report);
            }
        };
    }

    /** A pass begins; returns its number, for {@link #tickEnded}. */
    public long passStarting() {
        synchronized (monitor) {
            return ++started;
        }
    }

    /** The tick of pass {@code pass} has ended ({@code report} null when it failed): its askers are answered. */
    public void tickEnded(long pass, TickReport report) {
        synchronized (monitor) {
            ticked = Math.max(ticked, pass);
            lastReport = report;
            monitor.notifyAll();
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
            Thread handler = new Thread(() -> answer(client), "daemon-client");
            handler.setDaemon(true);
            handler.start();
        }
    }

    private void answer(SocketChannel client) {
        try (client) {
            if (!fromOwner(client, owner)) {
                return;
            }
            String request = readLine(client);
            String reply;
            if (DaemonWire.RUN.equals(request)) {
                Commands handler = commands;
                if (handler == null || !startRunning()) {
                    reply = "error not serving commands\n";
                } else {
                    try {
                        handler.serve(client);
                    } finally {
                        synchronized (monitor) {
                            running--;
                            monitor.notifyAll();
                        }
                    }
                    return;
                }
            } else if (DaemonWire.WAKE.equals(request)) {
                request(false);
                reply = DaemonWire.OK + "\n";
            } else if (DaemonWire.SYNC.equals(request) || DaemonWire.FRESH.equals(request)) {
                TickReport report = awaitTick(request(DaemonWire.FRESH.equals(request)));
                reply = report == null ? DaemonWire.FAILED + "\n" : DaemonWire.encode(report);
            } else {
                reply = "error unknown request\n";
            }
            ByteBuffer bytes = ByteBuffer.wrap(reply.getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                client.write(bytes);
            }
        } catch (IOException | RuntimeException e) {
            // A client that went away, or a request we could not read: it falls back to ticking itself.
        }
    }

    /** Counts a handed line in, unless the server is closing (then the client runs the line itself). */
    private boolean startRunning() {
        synchronized (monitor) {
            if (closed) {
                return false;
            }
            running++;
            return true;
        }
    }

    /**
     * Records a request; returns the pass whose tick answers it: one that starts after it, or,
     * for {@code current} (a reader content with a pass under way), the one running now.
     */
    private long request(boolean current) {
        synchronized (monitor) {
            long target = current && started > ticked ? started : started + 1;
            requested = Math.max(requested, target);
            monitor.notifyAll();
            return target;
        }
    }

    private TickReport awaitTick(long pass) {
        synchronized (monitor) {
            while (ticked < pass && !closed) {
                try {
                    monitor.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
            return ticked >= pass ? lastReport : null;
        }
    }

    /** Whether the peer of {@code client} runs as {@code owner} (the socket's owner). */
    static boolean fromOwner(SocketChannel client, UserPrincipal owner) {
        try {
            UnixDomainPrincipal peer = client.getOption(ExtendedSocketOptions.SO_PEERCRED);
            return peer.user().equals(owner);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /**
     * The request line, read a byte at a time: a {@code run} request's body follows it on the
     * same connection and belongs to the command handler.
     */
    static String readLine(SocketChannel client) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        byte[] line = new byte[MAX_REQUEST];
        for (int length = 0; length < MAX_REQUEST; length++) {
            one.clear();
            if (client.read(one) < 0) {
                break;
            }
            if (one.get(0) == '\n') {
                return new String(line, 0, length, StandardCharsets.US_ASCII);
            }
            line[length] = one.get(0);
        }
        throw new IOException("no request line");
    }

    /** Closes, letting handed lines under way finish for up to 5 s (the keeper's stop waits longer). */
    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    /**
     * Stops answering: the socket goes (commands then tick for themselves), passes awaited are
     * answered "failed", and the handed command lines under way get up to {@code drain} to finish
     * before the lock is released.
     */
    public void close(Duration drain) {
        synchronized (monitor) {
            if (closed) {
                return;
            }
            closed = true;
            monitor.notifyAll();
        }
        Thread hook = shutdownHook;
        if (hook != null && Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs (or ran) this close itself
            }
        }
        try {
            server.close();
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            // The next daemon removes a stale socket under the lock.
        }
        long deadline = System.nanoTime() + drain.toNanos();
        synchronized (monitor) {
            while (running > 0 && System.nanoTime() < deadline) {
                try {
                    monitor.wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        try {
            lock.release();
        } catch (IOException e) {
            // Closing the channel releases it too.
        }
        closeQuietly(lockChannel);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing to do
            }
        }
    }
}
