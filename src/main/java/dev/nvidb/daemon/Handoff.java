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
 * ticker, which serves the daemon's socket while it lingers after a burst of submits), a short,
 * non-interactive command line (the agents' {@code job submit}, {@code queue status --json},
 * {@code job ls}, …) is handed to it over its socket and runs in the daemon's warm JVM; this
 * process only relays the answer's bytes and exit code. A cold JVM that parses options, reads
 * YAML, opens SQLite and writes JSON spends most of half a second doing so; one that connects
 * and relays spends little more than its own start. Right after the submit that started a
 * ticker, before the ticker serves its socket, such a line waits for it (a marker the ticker
 * removes once it listens; see {@link #awaitStartingTicker}) rather than run a second cold JVM
 * beside the one starting.
 *
 * <p>Only what runs exactly as it would here is handed over: no terminal (nothing to ask, no
 * colours, no size), no stdin, nothing that names a file relative to this directory
 * ({@code --script}, {@code --db-path}, {@code @file}), nothing that waits or follows. The
 * daemon runs the line with this process's environment ({@code NVIDB_HOME} made absolute) and
 * only when it is the same build (the jar's path, size and time): after an upgrade a daemon
 * still running old code is not asked. Anything else, or any failure before the daemon has
 * accepted the line, and the command runs in this process as always; {@code NVIDB_NO_HANDOFF=1}
 * turns the handoff off.
 *
 * <p>Loads JDK classes only, and no lambdas: it runs before anything else in every command.
 *
 * <pre>
 * client → daemon   "run\n", then: int version, build, int n, n arguments, int m, m (name, value)
 *                   (each string an int length and UTF-8 bytes)
 * daemon → client   frames: byte kind, int length, bytes; kinds: a accepted (the daemon will run
 *                   the line once confirmed), n refused (run it yourself; the reason), o stdout,
 *                   e stderr, x exit code (int)
 * client → daemon   after "a": the byte 'g' (go): from here the line is the daemon's; a client
 *                   that gave up first (no "a" in time, or Ctrl-C) closes instead, and the daemon
 *                   runs nothing. So a line runs in exactly one place, however late "a" comes.
 * </pre>
 */
public final class Handoff {

    /** Set (to anything) to run every command in its own process. */
    static final String DISABLE = "NVIDB_NO_HANDOFF";

    public static final int VERSION = 2;
    public static final byte ACCEPTED = 'a';
    public static final byte GO = 'g';
    public static final byte REFUSED = 'n';
    public static final byte OUT = 'o';
    public static final byte ERR = 'e';
    public static final byte EXIT = 'x';

    /** How long the daemon has to accept the line before this process runs it itself. */
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

    /** Options that read a local file, wait, or change what the daemon would open: such a line runs here. */
    private static final String[] KEPT_HERE = {"--db-path", "--script", "--wait", "--wait-timeout", "--help", "-h",
        "--version", "-V"};

    private Handoff() {
    }

    /**
     * Runs {@code args} in the daemon when it may; returns the exit code, or -1 when nothing ran
     * there and this process should run the command itself.
     */
    public static int attempt(String[] args, boolean terminal, PrintStream out, PrintStream err) {
        Map<String, String> environment = System.getenv();
        if (terminal || environment.get(DISABLE) != null || !eligible(args)) {
            return -1;
        }
        File home = nvidbHome(environment);
        if (home == null) {
            return -1;
        }
        byte[] request;
        try {
            request = request(args, environment);
        } catch (IOException e) {
            return -1;
        }
        File socket = new File(home, "queue.db.daemon");
        if (!socket.exists() && !awaitStartingTicker(new File(home, "queue.db.ticker-starting"), socket, TICKER_START_MS)) {
            return -1;
        }
        return attempt(socket, request, out, err);
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

    private static int attempt(File socket, byte[] request, PrintStream out, PrintStream err) {
        SocketChannel channel;
        try {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        } catch (IOException | UnsupportedOperationException e) {
            return -1;
        }
        Relay relay = new Relay(channel, out, err);
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

    /** Whether the line is one the daemon may run as this process would: see the class comment. */
    public static boolean eligible(String[] args) {
        int at = 0;
        while (at < args.length && (args[at].equals("--json") || args[at].equals("--verbose") || args[at].equals("--local"))) {
            at++;
        }
        if (at + 1 >= args.length || !handed(args[at], args[at + 1])) {
            return false;
        }
        boolean command = false;
        for (String arg : args) {
            if (arg.startsWith("@")) {
                return false; // picocli reads @FILE relative to the working directory
            }
            if (command) {
                continue;
            }
            if (arg.equals("--")) {
                command = true;
                continue;
            }
            for (String kept : KEPT_HERE) {
                if (arg.startsWith(kept) && (arg.length() == kept.length() || arg.charAt(kept.length()) == '=')) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean handed(String group, String verb) {
        if (group.equals("job")) {
            return verb.equals("submit") || verb.equals("ls") || verb.equals("show") || verb.equals("why")
                    || verb.equals("cancel")
                    || verb.equals("result");
        }
        if (group.equals("queue")) {
            return verb.equals("status") || verb.equals("nodes") || verb.equals("alerts") || verb.equals("events");
        }
        return false;
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

    private static byte[] request(String[] args, Map<String, String> environment) throws IOException {
        Map<String, String> sent = new LinkedHashMap<>(environment);
        if (environment.get("NVIDB_HOME") != null && !environment.get("NVIDB_HOME").isEmpty()) {
            sent.put("NVIDB_HOME", nvidbHome(environment).getPath()); // the daemon has another working directory
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
        bytes.write("run\n".getBytes(StandardCharsets.US_ASCII));
        DataOutputStream body = new DataOutputStream(bytes);
        body.writeInt(VERSION);
        string(body, build());
        body.writeInt(args.length);
        for (String arg : args) {
            string(body, arg);
        }
        body.writeInt(sent.size());
        for (Map.Entry<String, String> variable : sent.entrySet()) {
            string(body, variable.getKey());
            string(body, variable.getValue());
        }
        body.flush();
        return bytes.toByteArray();
    }

    public static void string(DataOutputStream out, String value) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
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
     * confirmed the line ends the process with 130 and the line runs nowhere.
     */
    private static final class Relay {
        private final SocketChannel channel;
        private final PrintStream out;
        private final PrintStream err;
        private final Object lock = new Object();
        private boolean accepted;
        /** This process stopped waiting for "accepted" (too slow, or a signal): it confirms nothing. */
        private boolean gaveUp;
        private boolean ended;
        private boolean signalled;
        private Integer code;

        Relay(SocketChannel channel, PrintStream out, PrintStream err) {
            this.channel = channel;
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
                    if (length < 0 || length > (1 << 24)) {
                        break;
                    }
                    ByteBuffer payload = ByteBuffer.allocate(length);
                    if (!readFully(payload)) {
                        break;
                    }
                    byte[] data = payload.array();
                    if (kind == ACCEPTED) {
                        synchronized (lock) {
                            if (gaveUp || !confirm()) {
                                break; // too late, or Ctrl-C came first: the daemon runs nothing
                            }
                            accepted = true;
                            lock.notifyAll();
                        }
                    } else if (!accepted) {
                        break; // refused, or not a server of this protocol: run the line here
                    } else if (kind == OUT) {
                        out.write(data, 0, data.length);
                        out.flush();
                    } else if (kind == ERR) {
                        err.write(data, 0, data.length);
                        err.flush();
                    } else if (kind == EXIT && length == 4) {
                        finish(payload.getInt(0));
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
                ByteBuffer go = ByteBuffer.wrap(new byte[] {GO});
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
