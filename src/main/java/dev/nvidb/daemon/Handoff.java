package dev.nvidb.daemon;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The client half of the warm path for the CLI itself: when the queue's daemon runs (or a submit
 * ticker, which serves the daemon's socket while it lingers after a burst of submits), a short
 * command run without a terminal (the agents' {@code job submit}, {@code queue status --json},
 * {@code job ls}, {@code job wait}, …) runs in the daemon's warm JVM; this process only sends it
 * and relays the {@link DaemonReply}s: the output's bytes and the exit code. A cold JVM that
 * parses options, reads YAML, opens SQLite and writes JSON spends most of half a second doing
 * so; one that connects and relays spends little more than its own start. Right after the submit
 * that started a ticker, before the ticker serves its socket, a command waits for it (a marker
 * the ticker removes once it listens; see {@link #awaitStartingTicker}) rather than run a second
 * cold JVM beside the one starting.
 *
 * <p>This process does not parse its line: picocli's first parse costs a cold JVM most of a
 * tenth of a second, as much again as the rest of a handed command. It sends its words
 * ({@link DaemonRequest.Line}) with its directory and environment, and the daemon's parser (the
 * same command tree, warm) decides what they are: a typed {@link DaemonRequest} it runs (a
 * submit, a status read, a listing, a wait), one of the few commands it runs as their words, or
 * nothing it runs, refused before anything runs (this process then runs the line itself, and
 * reports its trouble as ever). Programs that already hold a typed request send it as it is.
 * The daemon runs only for a client of the same build (the jar's path, size and time): after an
 * upgrade a daemon still running old code is not asked. Any failure before the daemon has
 * accepted the request, and the command runs in this process as always;
 * {@code NVIDB_NO_HANDOFF=1} turns the handoff off.
 *
 * <p>Loads JDK classes only, and no lambdas: it runs before anything else in every command.
 *
 * <pre>
 * client → daemon   "run\n", then: int version, build, environment (int n, n (name, value)),
 *                   working directory, the request ({@link DaemonRequest#write}); each string
 *                   an int length and UTF-8
 * daemon → client   {@link DaemonReply} frames: byte kind, int length, bytes
 * client → daemon   after "accepted": the byte 'g' (go): from here the request is the daemon's; a
 *                   client that gave up first (no "accepted" in time, or Ctrl-C) closes instead,
 *                   and the daemon runs nothing. So a request runs in exactly one place, however
 *                   late "accepted" comes. A client that closes while an interruptible request
 *                   (a wait) runs stops it.
 * </pre>
 */
public final class Handoff {

    /** Set (to anything) to run every command in its own process. */
    public static final String DISABLE = "NVIDB_NO_HANDOFF";

    public static final int VERSION = 3;

    /** How long the daemon has to accept the request before this process runs it itself. */
    private static final long ACCEPT_TIMEOUT_MS = 5000;
    /**
     * How long after a submit started the ticker a command waits for it to serve the socket: it
     * starts in well under a second unless the machine is very busy, and a command that gives up
     * only pays this once, then runs as it would have.
     */
    static final long TICKER_START_MS = 3000;
    private static final long STARTING_POLL_MS = 10;
    /** After Ctrl-C, how long the handed command has to finish and answer before this process exits 130. */
    private static final long ANSWER_AFTER_SIGNAL_MS = 10_000;

    private Handoff() {
    }

    /**
     * Runs the command line {@code args} in the daemon when it takes it; returns the exit code,
     * or -1 when nothing ran there and this process should run the command itself. Not on a
     * terminal (nothing to ask, no colours, no size), and not a line with an argument file
     * ({@code @FILE}, which the daemon's parser would read in its own directory).
     */
    public static int attempt(String[] args, boolean terminal, PrintStream out, PrintStream err) {
        if (terminal) {
            return -1;
        }
        if (!commandTheDaemonRuns(args)) {
            return -1; // no round trip for a command it never runs
        }
        for (String arg : args) {
            if (arg.startsWith("@")) {
                return -1;
            }
        }
        return attempt(new DaemonRequest.Line(java.util.Arrays.asList(args)), System.getenv(),
                System.getProperty("user.dir"), true, out, err);
    }

    /**
     * Runs {@code request} in the daemon of the default queue database when it takes it; returns
     * the exit code, or -1 when nothing ran there. A ticker still starting is waited for when
     * {@code waitForTicker}.
     */
    public static int attempt(DaemonRequest request, Map<String, String> environment, String directory,
                              boolean waitForTicker, PrintStream out, PrintStream err) {
        File home = nvidbHome(environment);
        if (home == null || environment.get(DISABLE) != null) {
            return -1;
        }
        File socket = new File(home, "queue.db.daemon");
        if (!socket.exists() && !(waitForTicker
                && awaitStartingTicker(new File(home, "queue.db.ticker-starting"), socket, TICKER_START_MS))) {
            return -1;
        }
        byte[] bytes;
        try {
            bytes = envelope(request, environment, directory, build());
        } catch (IOException e) {
            return -1;
        }
        return attempt(socket, bytes, request.interruptible(), out, err);
    }

    /**
     * Whether {@code args} name a command the daemon runs (their command words, after leading
     * shared options: {@code job submit}, {@code job ls}, …): only those lines are sent, so a
     * command it never runs costs no round trip. Whether it runs this line (its options, its
     * input) is the daemon parser's decision. The list is the commands that are
     * {@code cli.HandedCommand}s ({@code HandedCommandsTest} holds the two together).
     */
    public static boolean commandTheDaemonRuns(String[] args) {
        int at = 0;
        while (at < args.length && (args[at].equals("--json") || args[at].equals("--verbose") || args[at].equals("--local"))) {
            at++;
        }
        if (at + 1 >= args.length) {
            return false;
        }
        String group = args[at];
        String verb = args[at + 1];
        if (group.equals("job")) {
            return verb.equals("submit") || verb.equals("ls") || verb.equals("wait") || verb.equals("show")
                    || verb.equals("why") || verb.equals("cancel") || verb.equals("result");
        }
        return group.equals("queue") && (verb.equals("status") || verb.equals("nodes") || verb.equals("alerts")
                || verb.equals("events"));
    }

    /**
     * A submit ticker being started (its marker written within {@code windowMs}, no socket yet):
     * waits until it serves the socket, which it says by removing the marker once it listens.
     * True when it does; false when there is no such ticker, it ended or could not serve, or it
     * took longer than the window from its start (this process then runs the line itself). A
     * marker older than the window, left by a ticker that died before serving, is removed.
     */
    static boolean awaitStartingTicker(File marker, File socket, long windowMs) {
        long started = marker.lastModified();
        if (started == 0) {
            return false;
        }
        long now = System.currentTimeMillis();
        long deadline = Math.min(started, now) + windowMs;
        if (now >= deadline) {
            if (marker.lastModified() == started) {
                marker.delete();
            }
            return false;
        }
        try {
            while (marker.exists()) {
                if (System.currentTimeMillis() >= deadline) {
                    return false;
                }
                Thread.sleep(STARTING_POLL_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return socket.exists();
    }

    private static int attempt(File socket, byte[] request, boolean interruptible, PrintStream out, PrintStream err) {
        SocketChannel channel;
        try {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        } catch (IOException | UnsupportedOperationException e) {
            return -1;
        }
        Relay relay = new Relay(channel, interruptible, out, err);
        // From before the line is sent: a Ctrl-C before the line is confirmed makes sure it runs
        // nowhere (130); after, it waits for the daemon's answer. The daemon has ACCEPT_TIMEOUT_MS
        // from here to accept it.
        relay.installSignalAnswer();
        relay.startWatchdog();
        try {
            channel.connect(UnixDomainSocketAddress.of(socket.getPath()));
            write(channel, request);
        } catch (IOException | RuntimeException e) {
            return relay.notTaken();
        }
        return relay.run();
    }

    /** {@code $NVIDB_HOME} ({@code ~} expanded), else {@code ~/.nvidb}, absolute; as {@code NvidbHome} resolves it. */
    static File nvidbHome(Map<String, String> environment) {
        String homeVariable = environment.get("HOME");
        String userHome = homeVariable != null && !homeVariable.isEmpty() ? homeVariable : System.getProperty("user.home");
        if (userHome == null) {
            return null;
        }
        String override = environment.get("NVIDB_HOME");
        File home;
        if (override == null || override.isEmpty()) {
            home = new File(userHome, ".nvidb");
        } else if (override.equals("~")) {
            home = new File(userHome);
        } else if (override.startsWith("~/")) {
            home = new File(userHome, override.substring(2));
        } else {
            home = new File(override);
        }
        return home.getAbsoluteFile();
    }

    /**
     * This build's identity: where its code lives, with size and time. The daemon runs a line
     * only for a client of the same build.
     */
    public static String build() {
        try {
            File code = new File(Handoff.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // StringBuilder, not +: string concatenation would bootstrap method handles on this path.
            return new StringBuilder(code.getAbsolutePath()).append(' ').append(code.length()).append(' ')
                    .append(code.lastModified()).toString();
        } catch (Exception e) {
            return "unknown";
        }
    }

    /**
     * The bytes a client of {@code build} sends: the request line, the build, the environment
     * ({@code NVIDB_HOME} made absolute: the daemon has another working directory), the client's
     * working directory, the request.
     */
    public static byte[] envelope(DaemonRequest request, Map<String, String> environment, String directory,
                                  String build) throws IOException {
        Map<String, String> sent = new LinkedHashMap<>(environment);
        if (environment.get("NVIDB_HOME") != null && !environment.get("NVIDB_HOME").isEmpty()) {
            sent.put("NVIDB_HOME", nvidbHome(environment).getPath());
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
        bytes.write("run\n".getBytes(StandardCharsets.US_ASCII));
        DataOutputStream body = new DataOutputStream(bytes);
        body.writeInt(VERSION);
        DaemonRequest.string(body, build);
        DaemonRequest.map(body, sent);
        DaemonRequest.string(body, directory);
        DaemonRequest.write(body, request);
        body.flush();
        return bytes.toByteArray();
    }

    private static void write(SocketChannel channel, byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    /**
     * Reads the daemon's frames and passes them on. A signal (Ctrl-C) while the command runs
     * does not cut it short: the process waits for its answer (a short command's, so a submit
     * still prints the job it stored) and exits with its code. A signal before this process
     * confirmed the line ends the process with 130 and the line runs nowhere. An interruptible
     * request (a wait) is different: a signal closes the connection, which stops it in the daemon,
     * and the process ends with 130 at once.
     */
    private static final class Relay {
        private final SocketChannel channel;
        /** A wait: Ctrl-C hangs up, which stops it in the daemon (the daemon says so when it accepts). */
        private boolean interruptible;
        private final PrintStream out;
        private final PrintStream err;
        private final Object lock = new Object();
        private boolean accepted;
        /** This process stopped waiting for "accepted" (too slow, or a signal): it confirms nothing. */
        private boolean gaveUp;
        private boolean ended;
        private boolean signalled;
        private Integer code;

        Relay(SocketChannel channel, boolean interruptible, PrintStream out, PrintStream err) {
            this.channel = channel;
            this.interruptible = interruptible;
            this.out = out;
            this.err = err;
        }

        /**
         * Gives the daemon {@link #ACCEPT_TIMEOUT_MS} to accept the line; then this process stops
         * waiting (and runs the line itself). The thread ends once the line is accepted.
         */
        void startWatchdog() {
            Thread watchdog = new Thread("handoff-accept") {
                @Override
                public void run() {
                    synchronized (lock) {
                        long deadline = System.currentTimeMillis() + ACCEPT_TIMEOUT_MS;
                        long left;
                        while (!accepted && !ended && (left = deadline - System.currentTimeMillis()) > 0) {
                            try {
                                lock.wait(left);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                        if (!accepted && !ended) {
                            gaveUp = true;
                            close(); // unblocks the read below; the command then runs here
                        }
                    }
                }
            };
            watchdog.setDaemon(true);
            watchdog.start();
        }

        int run() {
            ByteBuffer header = ByteBuffer.allocate(5);
            try {
                while (true) {
                    header.clear();
                    if (!readFully(header)) {
                        break;
                    }
                    byte kind = header.get(0);
                    int length = header.getInt(1);
                    if (length < 0 || length > DaemonReply.MAX_FRAME) {
                        break;
                    }
                    ByteBuffer payload = ByteBuffer.allocate(length);
                    if (!readFully(payload)) {
                        break;
                    }
                    DaemonReply reply = DaemonReply.of(kind, payload.array());
                    if (reply instanceof DaemonReply.Accepted acceptance) {
                        synchronized (lock) {
                            if (gaveUp || !confirm()) {
                                break; // too late, or Ctrl-C came first: the daemon runs nothing
                            }
                            interruptible = interruptible || acceptance.interruptible();
                            accepted = true;
                            lock.notifyAll();
                        }
                    } else if (!accepted) {
                        break; // refused, or not a server of this protocol: run the command here
                    } else if (reply instanceof DaemonReply.Out output) {
                        out.write(output.bytes(), 0, output.bytes().length);
                        out.flush();
                    } else if (reply instanceof DaemonReply.Err output) {
                        err.write(output.bytes(), 0, output.bytes().length);
                        err.flush();
                    } else if (reply instanceof DaemonReply.Exit exit) {
                        finish(exit.code());
                        return code;
                    }
                }
            } catch (IOException | RuntimeException e) {
                // below: refused or broken
            }
            synchronized (lock) {
                if (!accepted) {
                    return notTaken();
                }
                if (signalled && interruptible) {
                    ended = true;
                    return 130; // Ctrl-C stopped the wait, here and in the daemon
                }
            }
            close();
            synchronized (lock) {
                ended = true;
                lock.notifyAll();
            }
            err.println("nvidb: the queue daemon stopped while running this command; whatever it did is in the"
                    + " queue (nvidb job ls --no-tick) — check before running it again");
            err.flush();
            finish(1);
            return 1;
        }

        /**
         * The daemon did not take the line: -1 (run it here), or 130 when a signal already came
         * (the process is ending; the line must not start here either).
         */
        int notTaken() {
            close();
            synchronized (lock) {
                ended = true;
                lock.notifyAll();
                return signalled ? 130 : -1;
            }
        }

        private void finish(int exit) {
            synchronized (lock) {
                code = exit;
                ended = true;
                lock.notifyAll();
            }
            close();
        }

        /**
         * On a signal, the JVM runs this hook while the relay goes on: wait for the command's
         * answer, exit with its code. (At a normal exit the relay has ended: it exits with the code.)
         */
        void installSignalAnswer() {
            Runtime.getRuntime().addShutdownHook(new Thread("handoff-answer") {
                @Override
                public void run() {
                    synchronized (lock) {
                        signalled = !ended;
                        if (interruptible && !ended) {
                            gaveUp = true;
                            close(); // the daemon stops the request; this process exits 130
                            return;
                        }
                        if (!accepted) {
                            gaveUp = true; // the line must not start anywhere now
                            close();
                        }
                        long deadline = System.currentTimeMillis() + ANSWER_AFTER_SIGNAL_MS;
                        long left;
                        while (!ended && (left = deadline - System.currentTimeMillis()) > 0) {
                            try {
                                lock.wait(left);
                            } catch (InterruptedException e) {
                                break;
                            }
                        }
                        if (code == null) {
                            return; // the JVM exits as the signal asked (130 for Ctrl-C)
                        }
                    }
                    out.flush();
                    err.flush();
                    Runtime.getRuntime().halt(code);
                }
            });
        }

        /** Tells the daemon to go ahead; false when the daemon can no longer be told. */
        private boolean confirm() {
            try {
                ByteBuffer go = ByteBuffer.wrap(new byte[] {DaemonReply.GO});
                while (go.hasRemaining()) {
                    channel.write(go);
                }
                return true;
            } catch (IOException e) {
                return false;
            }
        }

        private boolean readFully(ByteBuffer buffer) throws IOException {
            while (buffer.hasRemaining()) {
                if (channel.read(buffer) < 0) {
                    return false;
                }
            }
            return true;
        }

        void close() {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing to do
            }
        }
    }
}
