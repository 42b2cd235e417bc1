package dev.nvidb.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A TCP relay on loopback that puts a network between a client and a harness node, since the
 * kernel's {@code netem} is not available on these machines: every byte is held for half the
 * round trip in each direction (order kept, bandwidth unlimited), and on command the relay
 * stalls its connections (bytes held until released), drops them (both sides closed at once,
 * as a cut cable looks to the client after its timeout, only sooner) or refuses new ones.
 *
 * <p>A TCP connect costs what it costs on a network: the client's first bytes reach the server
 * no sooner than one and a half round trips after it connected (SYN, SYN-ACK, then its data with
 * the ACK), the server's first bytes reach the client no sooner than two (the server learns of
 * the connection from that ACK). The relay also counts <em>turns</em>: each time a client sends
 * after the server has spoken since its last send, it has waited for an answer, which across a
 * network is a round trip (a connect counts one more). With the connect, that is the number of
 * round trips a conversation pays when nothing is pipelined.
 *
 * <p>Each connection has a reader and a sender per direction: the reader stamps each chunk
 * with the time it may leave, the sender sleeps until then. Test harness only.
 */
public final class LatencyRelay implements AutoCloseable {

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private volatile long oneWayNanos;
    private volatile boolean stalled;
    private volatile boolean refusing;
    private volatile boolean closed;
    private final java.util.concurrent.atomic.AtomicLong accepted = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong turns = new java.util.concurrent.atomic.AtomicLong();

    private LatencyRelay(ServerSocket listener, InetSocketAddress target, Duration roundTrip) {
        this.listener = listener;
        this.target = target;
        roundTrip(roundTrip);
    }

    /** A relay on {@code 127.0.0.1} (any free port) to {@code target}, adding {@code roundTrip}. */
    public static LatencyRelay start(InetSocketAddress target, Duration roundTrip) throws IOException {
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        LatencyRelay relay = new LatencyRelay(listener, target, roundTrip);
        Thread acceptor = new Thread(relay::accept, "relay-accept-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
        return relay;
    }

    /** The port clients connect to. */
    public int port() {
        return listener.getLocalPort();
    }

    /** Changes the added round trip; bytes already held keep their time. */
    public void roundTrip(Duration roundTrip) {
        oneWayNanos = roundTrip.toNanos() / 2;
    }

    /** Holds every byte (in both directions) from now until {@link #release}. */
    public void stall() {
        stalled = true;
    }

    /** Lets held bytes go, each no sooner than its delay. */
    public void release() {
        stalled = false;
    }

    /** New connections are closed as soon as they are accepted (true), or relayed again (false). */
    public void refuse(boolean refuse) {
        refusing = refuse;
    }

    /** Closes every open connection at once, both sides. */
    public void dropAll() {
        for (Link link : links) {
            link.close();
        }
    }

    /** Connections accepted since the relay started (or the last {@link #resetCounts}). */
    public long connectionsAccepted() {
        return accepted.get();
    }

    /**
     * Client turns since the relay started (or the last {@link #resetCounts}): sends that followed
     * an answer from the server, each a round trip waited for; a connection's first send counts
     * too when the server spoke first (the SSH greeting).
     */
    public long turns() {
        return turns.get();
    }

    /** Starts counting connections and turns from zero. */
    public void resetCounts() {
        accepted.set(0);
        turns.set(0);
    }

    /** Connections open now. */
    public int connections() {
        return links.size();
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        dropAll();
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return;
            }
            if (refusing) {
                closeQuietly(client);
                continue;
            }
            Socket server = new Socket();
            try {
                server.connect(target, 5_000);
            } catch (IOException e) {
                closeQuietly(client);
                closeQuietly(server);
                continue;
            }
            accepted.incrementAndGet();
            Link link = new Link(client, server, System.nanoTime());
            links.add(link);
            link.start();
        }
    }

    /** One relayed connection: two directions, each a reader and a sender. */
    private final class Link {
        private final Socket client;
        private final Socket server;
        private volatile boolean ended;
        private final java.util.concurrent.atomic.AtomicInteger finished = new java.util.concurrent.atomic.AtomicInteger();
        private final long connectedAt;
        /** Whether the server has spoken since the client last did (guarded by this link). */
        private boolean answered;

        Link(Socket client, Socket server, long connectedAt) {
            this.client = client;
            this.server = server;
            this.connectedAt = connectedAt;
        }

        void start() {
            direction(client, server, "up", true);
            direction(server, client, "down", false);
        }

        /**
         * Counts a turn when the client sends (read from it) after an answer reached it; notes an
         * answer when the server's bytes are delivered to the client.
         */
        private synchronized void spoke(boolean up) {
            if (up) {
                if (answered) {
                    turns.incrementAndGet();
                }
                answered = false;
            } else {
                answered = true;
            }
        }

        /** The earliest a chunk read now may leave: half a round trip on, and not before the connect allows. */
        private long due(boolean up) {
            long now = System.nanoTime();
            long connect = connectedAt + (up ? 3 : 4) * oneWayNanos;
            return Math.max(now + oneWayNanos, connect);
        }

        private void direction(Socket from, Socket to, String name, boolean up) {
            LinkedBlockingQueue<Chunk> held = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> read(from, held, up), "relay-" + name + "-read");
            Thread sender = new Thread(() -> send(to, held, up), "relay-" + name + "-send");
            reader.setDaemon(true);
            sender.setDaemon(true);
            reader.start();
            sender.start();
        }

        private void read(Socket from, LinkedBlockingQueue<Chunk> held, boolean up) {
            byte[] buffer = new byte[16 * 1024];
            try {
                // Not closed here: closing a socket's stream closes the socket, and the other direction still runs.
                InputStream in = from.getInputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (up) {
                        spoke(true);
                    }
                    held.add(new Chunk(java.util.Arrays.copyOf(buffer, n), due(up)));
                }
            } catch (IOException e) {
                // this side closed or was dropped
            }
            held.add(Chunk.END);
        }

        private void send(Socket to, LinkedBlockingQueue<Chunk> held, boolean up) {
            try {
                OutputStream out = to.getOutputStream();
                while (true) {
                    Chunk chunk = held.poll(1, TimeUnit.SECONDS);
                    if (ended) {
                        return;
                    }
                    if (chunk == null) {
                        continue;
                    }
                    if (chunk == Chunk.END) {
                        to.shutdownOutput();
                        if (finished.incrementAndGet() == 2) {
                            close();
                        }
                        return;
                    }
                    while (!ended) {
                        long wait = chunk.due() - System.nanoTime();
                        if (!stalled && wait <= 0) {
                            break;
                        }
                        long pause = stalled ? 10_000_000L : wait;
                        Thread.sleep(pause / 1_000_000, (int) (pause % 1_000_000));
                    }
                    if (ended) {
                        return;
                    }
                    if (!up) {
                        // Noted before the bytes leave: a client that answers at once is read on
                        // another thread, which could otherwise count its send before this answer.
                        spoke(false);
                    }
                    out.write(chunk.bytes());
                    out.flush();
                }
            } catch (IOException e) {
                close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
            }
        }

        void close() {
            ended = true;
            closeQuietly(client);
            closeQuietly(server);
            links.remove(this);
        }
    }

    private record Chunk(byte[] bytes, long due) {
        static final Chunk END = new Chunk(new byte[0], 0);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
