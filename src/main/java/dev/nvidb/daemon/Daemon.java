package dev.nvidb.daemon;

import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.error.NvidbException;
import dev.nvidb.queue.DaemonPass;
import dev.nvidb.queue.Passes;
import dev.nvidb.queue.Pause;
import dev.nvidb.queue.Ticking;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * {@code queue daemon}: the queue kept moving without anyone typing, a pass ({@link Passes}:
 * tick, alerts, maintenance) every interval. A pass that fails (the database busy past its
 * timeout, a node layer error) is reported and the next pass runs as usual: an unattended
 * daemon outlives a bad minute.
 *
 * <p>While it runs, the daemon serves the warm path ({@link DaemonServer}): its SSH sessions,
 * and an agent on each node, stay open between passes, and a command that needs a tick asks it
 * for one instead of connecting to every node itself; such a request starts the next pass at
 * once. Commands handed over the socket run with the {@link DaemonServer.Commands} given.
 */
public final class Daemon {

    /** How often a daemon that does not serve the socket (a submit ticker does, for now) tries to take it. */
    private static final Duration SERVE_RETRY = Duration.ofMillis(500);

    private final Passes passes;
    private final Clock clock;
    private final Pause pause;
    private DaemonServer server;
    private DaemonServer.Commands commands;

    public Daemon(Passes passes) {
        this.passes = passes;
        this.clock = passes.clock();
        this.pause = passes.pause();
    }

    /**
     * One configuration of the daemon, opened: its passes, the files it was read from, what runs
     * the requests handed to it; closing it closes what was opened for it.
     */
    public record Opened(Passes passes, ConfigWatch files, DaemonServer.Commands commands, Runnable closing)
            implements AutoCloseable {
        @Override
        public void close() {
            closing.run();
        }
    }

    /**
     * {@code queue daemon}'s life: passes every {@code interval} on the configuration {@code open}
     * gives, each handed to {@code each}, until {@code each} answers false; when {@code reload}
     * says the configuration's files changed (and the new ones load), it is closed and opened
     * again (nodes added or removed, notify channels, retention), and the passes go on.
     */
    public static void runReloading(Supplier<Opened> open, Duration interval, Predicate<DaemonPass> each,
                                    Predicate<ConfigWatch> reload) {
        while (true) {
            boolean[] again = {false};
            try (Opened opened = open.get()) {
                Daemon daemon = new Daemon(opened.passes());
                daemon.serveCommands(opened.commands());
                daemon.run(interval, pass -> {
                    if (!each.test(pass)) {
                        return false;
                    }
                    again[0] = reload.test(opened.files());
                    return !again[0];
                });
            }
            if (!again[0]) {
                return;
            }
        }
    }

    /** One pass now (commands waiting on the warm path are answered as soon as its tick ends). */
    public DaemonPass pass() {
        return passes.pass(server == null ? Passes.TickWatch.NONE : server.tickWatch());
    }

    /**
     * Passes every {@code interval} (measured from the start of one pass to the start of the
     * next, or sooner when a command asks) until {@code each} answers false or the wait is
     * interrupted. A pass that throws is given to {@code each} as a failed pass, and the loop
     * goes on.
     */
    public void run(Duration interval, Predicate<DaemonPass> each) {
        Path database = passes.becomeDaemon();
        serve(database);
        try (Ticking.AgentScope agents = passes.keepAgents()) {
            loop(database, interval, each);
        } finally {
            if (server != null) {
                server.close();
            }
            server = null;
        }
    }

    /**
     * Serves the warm path unless another daemon (or a submit ticker lingering after a burst)
     * already does; tried again before every pass until it does.
     */
    private void serve(Path database) {
        if (server != null) {
            return;
        }
        server = DaemonServer.start(database, commands).orElse(null);
    }

    /** Serve command lines handed to this daemon with {@code handler} (call before {@link #run}). */
    public void serveCommands(DaemonServer.Commands handler) {
        this.commands = handler;
    }

    /** True when this daemon serves the warm path (false when another daemon already does). */
    public boolean serving() {
        return server != null;
    }

    private void loop(Path database, Duration interval, Predicate<DaemonPass> each) {
        while (true) {
            serve(database);
            Instant started = clock.instant();
            DaemonPass done;
            try {
                done = pass();
            } catch (InterruptedByUser e) {
                throw e;
            } catch (NvidbException e) {
                done = new DaemonPass(started, null, e.getMessage());
            }
            if (!each.test(done)) {
                return;
            }
            Duration spent = Duration.between(started, clock.instant());
            Duration left = interval.minus(spent);
            awaitNextPass(database, left.isNegative() ? Duration.ZERO : left);
        }
    }

    /**
     * Waits {@code left}, or less when a command asks for a pass. A daemon that does not serve
     * the socket yet tries to take it every half second meanwhile: a submit ticker lingering
     * after a burst leaves it within seconds, and commands should not tick for themselves for
     * the rest of a 15 s interval.
     */
    private void awaitNextPass(Path database, Duration left) {
        Duration rest = left;
        while (server == null) {
            if (rest.isNegative() || rest.isZero()) {
                return;
            }
            Duration step = rest.compareTo(SERVE_RETRY) < 0 ? rest : SERVE_RETRY;
            pause.pause(step);
            rest = rest.minus(step);
            serve(database);
        }
        server.awaitRequest(rest.isNegative() ? Duration.ZERO : rest);
    }
}
