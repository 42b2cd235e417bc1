package dev.nvidb.app;

import dev.nvidb.config.ConfigLoader;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.RemoteConfig;
import dev.nvidb.error.ConfigException;
import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.error.NvidbException;
import dev.nvidb.error.SshException;
import dev.nvidb.remote.ForwardedLine;
import dev.nvidb.remote.TerminalControl;
import dev.nvidb.ssh.SshPool;
import dev.nvidb.ssh.SshTarget;
import dev.nvidb.ssh.StreamedCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The client side of {@code remote:}: a queue command on a machine whose queue.yml names a
 * queue host opens no database here; its whole command line runs there instead, through the
 * SSH layer (same settings, aliases, ProxyJump and host keys as the monitor's servers), in one
 * exec ({@link ForwardedLine}), with stdin, stdout and stderr streamed both ways as bytes and
 * the far exit code returned unchanged. On a terminal the far command gets a pseudo-terminal of
 * this window's size and this terminal goes raw, so keys (Ctrl-C too) reach the far program.
 *
 * <p>Exit codes of its own: a configuration problem (no such nvidb on the queue host) is 2,
 * like every configuration error; an SSH failure (unreachable, authentication, host key) or a
 * connection lost mid-command is 1 (thrown, for the front end's one error handler); a far
 * command ended by a signal is 128 + the signal's number.
 */
public final class Forwarding {

    /** The front end's standard streams as bytes, and its terminal's controls (cli's {@code Streams}). */
    public interface Bytes {
        InputStream in();

        OutputStream out();

        OutputStream err();

        TerminalControl terminal();
    }

    private final Wiring.Front context;
    private final PrintWriter out;
    private final Bytes streams;
    private final Consumer<String> failure;

    private Forwarding(Wiring.Front context, PrintWriter out, Bytes streams, Consumer<String> failure) {
        this.context = context;
        this.out = out;
        this.streams = streams;
        this.failure = failure;
    }

    /**
     * Runs {@code args} on the queue host when this machine forwards them; empty when the
     * command runs here (not a queue command, {@code --local}, help, no {@code remote:}, or this
     * process is itself the far side of a forwarded command). A far command ended by a signal is
     * told to {@code failure} (one line); a failure of the forwarding itself is thrown.
     */
    public static Optional<Integer> attempt(Wiring.Front context, PrintWriter out, Bytes streams,
                                            Consumer<String> failure, String[] args) {
        List<String> line = Arrays.asList(args);
        if (ForwardedLine.forwardedHere(context.environment()) || !ForwardedLine.forwards(line)) {
            return Optional.empty();
        }
        try (Wiring wiring = new Wiring(context)) {
            if (!mayForward(wiring, context.environment())) {
                return Optional.empty();
            }
            // Loaded quietly: a command that is not forwarded loads it again and prints its warnings.
            NvidbConfig config = new ConfigLoader(wiring.home(), context.environment()).load();
            Optional<RemoteConfig> remote = config.findRemote();
            if (remote.isEmpty()) {
                return Optional.empty();
            }
            wiring.adopt(config);
            return Optional.of(new Forwarding(context, out, streams, failure).run(wiring, remote.get(),
                    ForwardedLine.shipScript(line, wiring.home())));
        }
    }

    /**
     * A cheap screen before loading the configuration: forwarding needs {@code remote} in
     * queue.yml or {@code NVIDB_REMOTE} set, so a command without either pays no extra parse.
     */
    private static boolean mayForward(Wiring wiring, Map<String, String> environment) {
        String variable = environment.get("NVIDB_REMOTE");
        if (variable != null && !variable.isBlank()) {
            return true;
        }
        try {
            return Files.isRegularFile(wiring.home().queueYml())
                    && Files.readString(wiring.home().queueYml()).contains("remote");
        } catch (IOException | RuntimeException e) {
            return true;   // let the loader report what is wrong with the file
        }
    }

    private int run(Wiring wiring, RemoteConfig remote, List<String> args) {
        String command = ForwardedLine.command(remote, args);
        SshTarget target = SshTarget.of(remote.host()).withPort(remote.port()).withUsername(remote.username());
        StreamedCommand.Pty pty = context.terminal() ? pty() : null;
        out.flush();
        context.err().flush();
        SshPool pool = wiring.sshPool();
        Runnable restore = pty == null ? () -> { } : streams.terminal().enterRaw();
        Thread restoreOnExit = new Thread(restore, "terminal-restore");
        Runtime.getRuntime().addShutdownHook(restoreOnExit);
        LineEnd err = new LineEnd(streams.err());
        try (StreamedCommand far = pool.stream(target, command, streams.in(), streams.out(), err, pty)) {
            Thread resizer = pty == null ? null : resizer(streams.terminal(), far, pty);
            try {
                StreamedCommand.Ending ending = far.waitForEnd();
                if (err.midLine()) {
                    context.err().println();   // what nvidb says next starts on a line of its own
                }
                return exitCode(remote, far.label(), ending);
            } finally {
                if (resizer != null) {
                    resizer.interrupt();
                }
            }
        } finally {
            restore.run();
            try {
                Runtime.getRuntime().removeShutdownHook(restoreOnExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
            flush(streams);
        }
    }

    private int exitCode(RemoteConfig remote, String host, StreamedCommand.Ending ending) {
        if (ending.connectionLost()) {
            throw new SshException(host + ": connection lost while the forwarded command ran",
                    "it may still be running there; look with: nvidb job ls");
        }
        if (ending.exitStatus() == null) {
            int number = signalNumber(ending.exitSignal());
            if (number == 2) {
                throw new InterruptedByUser("interrupted: the command on " + host + " was ended by SIGINT");
            }
            failure.accept("the forwarded command on " + host + " was ended by signal " + ending.exitSignal());
            return number == 0 ? NvidbException.EXIT_FAILED : 128 + number;
        }
        int status = ending.exitStatus();
        if (status == 127) {
            throw new ConfigException("the queue host " + host + " has no program '" + remote.nvidb()
                    + "' (remote: nvidb in queue.yml)", fix(host));
        }
        if (status == 126) {
            throw new ConfigException("'" + remote.nvidb() + "' on the queue host " + host
                    + " is not an executable program (remote: nvidb in queue.yml)", fix(host));
        }
        if (!NVIDB_CODES.contains(status)) {
            context.err().println("nvidb: warning: '" + remote.nvidb() + "' on " + host + " exited " + status
                    + ", a code nvidb never uses: is it nvidb? (remote: nvidb in queue.yml)");
            context.err().flush();
        }
        return status;
    }

    /** The exit codes nvidb itself ends with (docs/exit-codes.md). */
    private static final java.util.Set<Integer> NVIDB_CODES = java.util.Set.of(0, 1, 2, 70, 130);

    private static String fix(String host) {
        return "install nvidb on " + host + " and set its absolute path in queue.yml: remote: nvidb: /abs/path/to/nvidb"
                + " (a non-interactive SSH shell has a thin PATH)";
    }

    /** POSIX signal numbers of the names SSH reports; 0 for another. */
    private static int signalNumber(String name) {
        return switch (name == null ? "" : name) {
            case "HUP" -> 1;
            case "INT" -> 2;
            case "QUIT" -> 3;
            case "ABRT" -> 6;
            case "KILL" -> 9;
            case "SEGV" -> 11;
            case "PIPE" -> 13;
            case "TERM" -> 15;
            default -> 0;
        };
    }

    /** This terminal's type and size for the far pseudo-terminal ($COLUMNS/$LINES win, else the terminal's, else 80x24). */
    private StreamedCommand.Pty pty() {
        Map<String, String> env = context.environment();
        int[] size = streams.terminal().size();
        int columns = number(env.get("COLUMNS"), number(size == null ? null : Integer.toString(size[0]), 80));
        int rows = number(env.get("LINES"), number(size == null ? null : Integer.toString(size[1]), 24));
        String type = env.getOrDefault("TERM", "xterm");
        return new StreamedCommand.Pty(type.isBlank() ? "xterm" : type, columns, rows);
    }

    private static int number(String text, int fallback) {
        try {
            int value = text == null ? fallback : Integer.parseInt(text.strip());
            return value > 0 ? value : fallback;
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** Follows the terminal's size while the far command runs (a changed window is sent on within a second). */
    private static Thread resizer(TerminalControl terminal, StreamedCommand far, StreamedCommand.Pty pty) {
        Thread thread = new Thread(() -> {
            int[] last = {pty.columns(), pty.rows()};
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
                int[] now = terminal.size();
                if (now != null && (now[0] != last[0] || now[1] != last[1])) {
                    far.resize(now[0], now[1]);
                    last = now;
                }
            }
        }, "terminal-size");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Passes bytes on and remembers whether the last one ended a line. */
    private static final class LineEnd extends java.io.OutputStream {
        private final java.io.OutputStream target;
        private volatile int last = '\n';

        LineEnd(java.io.OutputStream target) {
            this.target = target;
        }

        boolean midLine() {
            return last != '\n';
        }

        @Override
        public void write(int b) throws IOException {
            target.write(b);
            last = b & 0xff;
        }

        @Override
        public void write(byte[] data, int offset, int length) throws IOException {
            target.write(data, offset, length);
            if (length > 0) {
                last = data[offset + length - 1] & 0xff;
            }
        }

        @Override
        public void flush() throws IOException {
            target.flush();
        }
    }

    private static void flush(Bytes streams) {
        try {
            streams.out().flush();
            streams.err().flush();
        } catch (IOException e) {
            // nowhere left to report it
        }
    }
}
