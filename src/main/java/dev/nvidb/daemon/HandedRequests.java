package dev.nvidb.daemon;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The daemon's half of {@link Handoff}: reads a {@link DaemonRequest} handed over its socket,
 * has its {@link Runner} make it the request it runs (a client's words become the typed request
 * the command line's parser makes of them), runs that in this JVM with the client's
 * environment, no terminal and no stdin, and sends the {@link DaemonReply}s back: stdout and
 * stderr as they come, then the exit code. A request from another build, one that cannot be
 * read, or one the runner does not run is refused before anything runs (the client then runs
 * it itself).
 */
public final class HandedRequests implements DaemonServer.Commands {

    /** How long a client has to confirm a request after "accepted" before the daemon drops it. */
    private static final long CONFIRM_WITHIN_MS = 10_000;

    /** Largest request accepted (the request and the environment). */
    private static final int MAX_REQUEST = 8 << 20;

    /** What runs the requests: the command line's front end, which the daemon does not know. */
    public interface Runner {
        /**
         * What the daemon runs for {@code request} from a client with {@code environment} in
         * {@code directory}: a typed request as it is, a {@link DaemonRequest.Line} as its words
         * parse (a typed request, or a line the daemon runs as such); null when it runs none of
         * it (the client then runs it, and reports its trouble itself).
         */
        DaemonRequest accept(Map<String, String> environment, String directory, DaemonRequest request);

        /**
         * Runs {@code request} as the client would have, writing what it prints to {@code out} and
         * {@code err}; returns the exit code. An interruptible request's thread is interrupted
         * when its client goes away.
         */
        int run(Map<String, String> environment, DaemonRequest request, OutputStream out, OutputStream err);
    }

    private final Runner runner;
    private final String build = Handoff.build();

    public HandedRequests(Runner runner) {
        this.runner = runner;
    }

    @Override
    public void serve(SocketChannel connection) throws IOException {
        Frames frames = new Frames(connection);
        Map<String, String> environment;
        DaemonRequest request;
        try {
            DataInputStream in = new DataInputStream(new ChannelInput(connection));
            int version = in.readInt();
            String clientBuild = DaemonRequest.string(in);
            if (version != Handoff.VERSION || !build.equals(clientBuild)) {
                frames.send(new DaemonReply.Refused("another build of nvidb"));
                return;
            }
            environment = DaemonRequest.map(in);
            String directory = DaemonRequest.string(in);
            request = runner.accept(environment, directory, DaemonRequest.read(in));
        } catch (IOException | RuntimeException e) {
            frames.send(new DaemonReply.Refused("unreadable request"));
            return;
        }
        if (request == null) {
            frames.send(new DaemonReply.Refused("not a command the daemon runs"));
            return;
        }
        frames.send(new DaemonReply.Accepted(request.interruptible()));
        if (!confirmed(connection)) {
            return; // the client gave up first (and runs the request itself, or nowhere after Ctrl-C)
        }
        AtomicBoolean done = new AtomicBoolean();
        if (request.interruptible()) {
            watchForHangUp(connection, Thread.currentThread(), done);
        }
        int code;
        try {
            code = runner.run(environment, request, frames.stream(DaemonReply.OUT), frames.stream(DaemonReply.ERR));
        } finally {
            done.set(true);
            Thread.interrupted(); // a hang-up that came as the request ended concerns nothing after it
        }
        frames.send(new DaemonReply.Exit(code));
    }

    /**
     * Interrupts {@code running} when the client closes the connection before the request is
     * done (Ctrl-C on a wait): the wait ends instead of going on for nobody.
     */
    private static void watchForHangUp(SocketChannel connection, Thread running, AtomicBoolean done) {
        Thread watch = new Thread(() -> {
            ByteBuffer any = ByteBuffer.allocate(1);
            try {
                while (connection.read(any) >= 0) {
                    any.clear(); // the client sends nothing more: read until it goes
                }
            } catch (IOException e) {
                // closed: by the client, or by this side once the request was answered
            }
            if (!done.get()) {
                running.interrupt();
            }
        }, "handoff-hang-up");
        watch.setDaemon(true);
        watch.start();
    }

    /**
     * Waits (at most {@link #CONFIRM_WITHIN_MS}) for the client's go-ahead after "accepted":
     * only then is the request this daemon's to run. End of stream, anything else, or silence
     * means the client stopped waiting, and nothing runs here.
     */
    private static boolean confirmed(SocketChannel connection) throws IOException {
        connection.configureBlocking(false);
        try (Selector selector = Selector.open()) {
            connection.register(selector, SelectionKey.OP_READ);
            ByteBuffer go = ByteBuffer.allocate(1);
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CONFIRM_WITHIN_MS);
            while (true) {
                int read = connection.read(go);
                if (read < 0) {
                    return false;
                }
                if (read > 0) {
                    return go.get(0) == DaemonReply.GO;
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                selector.select(left);
            }
        } finally {
            if (connection.isOpen()) {
                connection.configureBlocking(true); // the selector is closed: the channel is deregistered
            }
        }
    }

    /**
     * Reads the request straight from the channel (not through {@code Channels.newInputStream},
     * whose reads and writes share one lock), at most {@link #MAX_REQUEST} bytes in all.
     */
    private static final class ChannelInput extends InputStream {
        private final SocketChannel channel;
        private final ByteBuffer buffer = ByteBuffer.allocate(8192);
        private long total;

        ChannelInput(SocketChannel channel) {
            this.channel = channel;
            buffer.limit(0);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] into, int offset, int length) throws IOException {
            if (!buffer.hasRemaining()) {
                buffer.clear();
                int read = channel.read(buffer);
                buffer.flip();
                if (read < 0) {
                    return -1;
                }
                total += read;
                if (total > MAX_REQUEST) {
                    throw new IOException("request too large");
                }
            }
            int n = Math.min(length, buffer.remaining());
            buffer.get(into, offset, n);
            return n;
        }
    }

    /** Replies on the connection; a client that went away makes every later send a no-op. */
    private static final class Frames {
        private final SocketChannel channel;
        private boolean broken;

        Frames(SocketChannel channel) {
            this.channel = channel;
        }

        synchronized void send(DaemonReply reply) {
            byte[] payload = reply.payload();
            send(reply.kind(), payload, 0, payload.length);
        }

        synchronized void send(byte kind, byte[] data, int offset, int length) {
            if (broken) {
                return;
            }
            ByteBuffer frame = ByteBuffer.allocate(5 + length);
            frame.put(kind).putInt(length).put(data, offset, length).flip();
            try {
                while (frame.hasRemaining()) {
                    channel.write(frame);
                }
            } catch (IOException e) {
                broken = true; // the client is gone (killed); the command finishes regardless
            }
        }

        OutputStream stream(byte kind) {
            return new OutputStream() {
                @Override
                public void write(int b) {
                    send(kind, new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] data, int offset, int length) {
                    if (length > 0) {
                        send(kind, data, offset, length);
                    }
                }
            };
        }
    }
}
