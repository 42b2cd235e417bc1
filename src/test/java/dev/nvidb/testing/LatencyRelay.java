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
            Link link = new Link(client, server);
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

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            direction(client, server, "up");
            direction(server, client, "down");
        }

        private void direction(Socket from, Socket to, String name) {
            LinkedBlockingQueue<Chunk> held = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> read(from, held), "relay-" + name + "-read");
            Thread sender = new Thread(() -> send(to, held), "relay-" + name + "-send");
            reader.setDaemon(true);
            sender.setDaemon(true);
            reader.start();
            sender.start();
        }

        private void read(Socket from, LinkedBlockingQueue<Chunk> held) {
            byte[] buffer = new byte[16 * 1024];
            try {
                // Not closed here: closing a socket's stream closes the socket, and the other direction still runs.
                InputStream in = from.getInputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    held.add(new Chunk(java.util.Arrays.copyOf(buffer, n), System.nanoTime() + oneWayNanos));
                }
            } catch (IOException e) {
                // this side closed or was dropped
            }
            held.add(Chunk.END);
        }

        private void send(Socket to, LinkedBlockingQueue<Chunk> held) {
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
