package dev.nvidb.cli;

import dev.nvidb.daemon.Handoff;
import dev.nvidb.daemon.DaemonServer;
import dev.nvidb.remote.TerminalControl;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The daemon's half of {@link Handoff}: runs a command line handed over its socket in this JVM,
 * with the client's environment, no terminal and no stdin, and sends stdout, stderr and the exit
 * code back as frames. A line from another build, or one {@link Handoff#eligible} would not have
 * sent, is refused before anything runs (the client then runs it itself).
 */
final class HandoffService implements DaemonServer.Commands {

    /** How long a client has to confirm a line after "accepted" before the daemon drops it. */
    private static final long CONFIRM_WITHIN_MS = 10_000;

    /** Largest request accepted (arguments and environment). */
    private static final int MAX_REQUEST = 4 << 20;

    private final String build = Handoff.build();

    /**
     * Serves lines from now on, first running one harmless line ({@code job ls --json --no-tick
     * -n 1}, output dropped) on a background thread of low priority: the first line a client
     * hands over then finds the parser, the configuration reader, the database layer and the JSON
     * writer loaded and run once, instead of paying for them (about a quarter of a second).
     */
    static HandoffService warmedUp(java.util.Map<String, String> environment) {
        Thread warm = new Thread(() -> {
            java.io.PrintWriter none = new PrintWriter(OutputStream.nullOutputStream());
            try {
                SubmitAnswer.handedOff(() -> Cli.run(new Context(environment, none, none, false),
                        "job", "ls", "--json", "--no-tick", "-n", "1"));
            } catch (RuntimeException e) {
                // only a warm-up
            }
        }, "handoff-warm-up");
        warm.setDaemon(true);
        warm.setPriority(Thread.MIN_PRIORITY);
        warm.start();
        return new HandoffService();
    }

    @Override
    public void serve(SocketChannel connection) throws IOException {
        Frames frames = new Frames(connection);
        Request request;
        try {
            request = read(connection);
        } catch (IOException | RuntimeException e) {
            frames.send(Handoff.REFUSED, bytes("unreadable request"));
            return;
        }
        if (request.version != Handoff.VERSION || !request.build.equals(build)) {
            frames.send(Handoff.REFUSED, bytes("another build of nvidb"));
            return;
        }
        if (!Handoff.eligible(request.args)) {
            frames.send(Handoff.REFUSED, bytes("not a command line the daemon runs"));
            return;
        }
        frames.send(Handoff.ACCEPTED, new byte[0]);
        if (!confirmed(connection)) {
            return; // the client gave up first (and runs the line itself, or nowhere after Ctrl-C)
        }
        OutputStream out = frames.stream(Handoff.OUT);
        OutputStream err = frames.stream(Handoff.ERR);
        PrintWriter outWriter = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
        PrintWriter errWriter = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
        Context context = new Context(request.environment, outWriter, errWriter, false,
                new Streams(new ByteArrayInputStream(new byte[0]), out, err, TerminalControl.NONE));
        int code;
        try {
            code = SubmitAnswer.handedOff(() -> Cli.run(context, request.args));
        } catch (RuntimeException | Error e) {
            errWriter.println("nvidb: internal error: " + e);
            code = ExitCodes.EXIT_INTERNAL;
        }
        outWriter.flush();
        errWriter.flush();
        frames.send(Handoff.EXIT, ByteBuffer.allocate(4).putInt(code).array());
    }

    /**
     * Waits (at most {@link #CONFIRM_WITHIN_MS}) for the client's go-ahead after "accepted":
     * only then is the line this daemon's to run. End of stream, anything else, or silence
     * means the client stopped waiting, and nothing runs here.
     */
    private static boolean confirmed(SocketChannel connection) throws IOException {
        connection.configureBlocking(false);
        try (java.nio.channels.Selector selector = java.nio.channels.Selector.open()) {
            connection.register(selector, java.nio.channels.SelectionKey.OP_READ);
            ByteBuffer go = ByteBuffer.allocate(1);
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(CONFIRM_WITHIN_MS);
            while (true) {
                int read = connection.read(go);
                if (read < 0) {
                    return false;
                }
                if (read > 0) {
                    return go.get(0) == Handoff.GO;
                }
                long left = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
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

    private record Request(int version, String build, String[] args, Map<String, String> environment) {
    }

    private static Request read(SocketChannel connection) throws IOException {
        DataInputStream in = new DataInputStream(new ChannelInput(connection));
        int version = in.readInt();
        String build = string(in);
        int count = in.readInt();
        if (count < 0 || count > 100_000) {
            throw new IOException("bad argument count");
        }
        String[] args = new String[count];
        for (int i = 0; i < count; i++) {
            args[i] = string(in);
        }
        int variables = in.readInt();
        if (variables < 0 || variables > 100_000) {
            throw new IOException("bad environment size");
        }
        Map<String, String> environment = new LinkedHashMap<>();
        for (int i = 0; i < variables; i++) {
            environment.put(string(in), string(in));
        }
        return new Request(version, build, args, environment);
    }

    private static String string(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_REQUEST) {
            throw new IOException("bad string length");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads the request straight from the channel (not through {@code Channels.newInputStream},
     * whose reads and writes share one lock), at most {@link #MAX_REQUEST} bytes in all.
     */
    private static final class ChannelInput extends java.io.InputStream {
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

    /** Frames on the connection; a client that went away makes every later send a no-op. */
    private static final class Frames {
        private final SocketChannel channel;
        private boolean broken;

        Frames(SocketChannel channel) {
            this.channel = channel;
        }

        synchronized void send(byte kind, byte[] data) {
            send(kind, data, 0, data.length);
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
                    send(kind, new byte[] {(byte) b});
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
