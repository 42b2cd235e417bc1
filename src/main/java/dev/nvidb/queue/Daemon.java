package dev.nvidb.queue;

import dev.nvidb.daemon.DaemonServer;
import dev.nvidb.engine.QueueEngine;
import dev.nvidb.engine.TickMode;
import dev.nvidb.model.TickReport;
import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.error.NvidbException;
import dev.nvidb.node.ResidentAgents;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;

/**
 * {@code queue daemon}: the queue kept moving without anyone typing. Each pass ticks (placing,
 * settling and enforcing timeouts), then delivers alerts (unless {@code --no-notify}; see
 * {@link Delivering}), then does what the pass owes besides. A pass that fails
 * (the database busy past its timeout, a node layer error) is reported and the next pass
 * runs as usual: an unattended daemon outlives a bad minute.
 *
 * <p>While it runs, the daemon serves the warm path ({@link DaemonServer}): its SSH sessions,
 * and an agent on each node ({@link ResidentAgents}), stay open between passes, and a command that needs a tick asks it for one instead of
 * connecting to every node itself; such a request starts the next pass at once.
 */
public final class Daemon {

    private final QueueEngine engine;
    private final Clock clock;
    private final Pause pause;
    private final Delivering delivering;
    private final Maintenance maintenance;
    private DaemonServer server;
    private Commands commands;

    /**
     * Runs a command line handed to the daemon over its socket, in this JVM (warm: no start-up
     * to pay); given the connection after the request line.
     */
    @FunctionalInterface
    public interface Commands {
        void serve(java.nio.channels.SocketChannel connection) throws java.io.IOException;
    }

    /**
     * @param delivering  the alert delivery after each tick, or null to tick only ({@code --no-notify})
     * @param maintenance backups and retention, done when due after delivery
     */
    Daemon(QueueEngine engine, Pause pause, Delivering delivering, Maintenance maintenance) {
        this.engine = engine;
        this.clock = engine.clock();
        this.pause = pause;
        this.delivering = delivering;
        this.maintenance = maintenance;
    }

    /** One pass now. */
    public DaemonPass pass() {
        Instant started = clock.instant();
        TickResult tick = tick();
        DaemonPass pass = notify(new DaemonPass(started, tick, null));
        return pass.withMaintenance(maintenance.due());
    }

    /**
     * Delivers alerts after the tick (the alerts it raised included). A delivery that fails on a
     * channel is in the pass's report; one that cannot reach the database fails the pass, keeping
     * its tick.
     */
    private DaemonPass notify(DaemonPass pass) {
        if (delivering == null) {
            return pass;
        }
        try {
            return pass.withNotify(delivering.deliver(), null);
        } catch (InterruptedByUser e) {
            throw e;
        } catch (NvidbException e) {
            return pass.withNotify(null, "alert delivery failed: " + e.getMessage());
        }
    }

    /** The pass's tick; commands waiting on the warm path are answered as soon as it ends. */
    private TickResult tick() {
        long number = server == null ? 0 : server.passStarting();
        TickReport report = null;
        try {
            report = engine.tick(TickMode.FORCE);
            return Ticking.result(report);
        } finally {
            if (server != null) {
                server.tickEnded(number, report);
            }
        }
    }

    /**
     * Passes every {@code interval} (measured from the start of one pass to the start of the
     * next, or sooner when a command asks) until {@code each} answers false or the wait is
     * interrupted. A pass that throws is given to {@code each} as a failed pass, and the loop
     * goes on.
     */
    public void run(Duration interval, Predicate<DaemonPass> each) {
        serve();
        try (ResidentAgents residents = new ResidentAgents(engine.settings().agent())) {
            engine.nodes().keepAgents(residents);
            loop(interval, each);
        } finally {
            engine.nodes().keepAgents(null);
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
    private void serve() {
        if (server != null) {
            return;
        }
        server = engine.serveDaemon().orElse(null);
        if (server != null && commands != null) {
            server.serveCommands(commands::serve);
        }
    }

    /** Serve command lines handed to this daemon with {@code handler} (call before {@link #run}). */
    public void serveCommands(Commands handler) {
        this.commands = handler;
    }

    /** True when this daemon serves the warm path (false when another daemon already does). */
    public boolean serving() {
        return server != null;
    }

    private void loop(Duration interval, Predicate<DaemonPass> each) {
        while (true) {
            serve();
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
            awaitNextPass(left.isNegative() ? Duration.ZERO : left);
        }
    }

    /** How often a daemon that does not serve the socket (a submit ticker does, for now) tries to take it. */
    private static final Duration SERVE_RETRY = Duration.ofMillis(500);

    /**
     * Waits {@code left}, or less when a command asks for a pass. A daemon that does not serve
     * the socket yet tries to take it every half second meanwhile: a submit ticker lingering
     * after a burst leaves it within seconds, and commands should not tick for themselves for
     * the rest of a 15 s interval.
     */
    private void awaitNextPass(Duration left) {
        Duration rest = left;
        while (server == null) {
            if (rest.isNegative() || rest.isZero()) {
                return;
            }
            Duration step = rest.compareTo(SERVE_RETRY) < 0 ? rest : SERVE_RETRY;
            pause.pause(step);
            rest = rest.minus(step);
            serve();
        }
        server.awaitRequest(rest.isNegative() ? Duration.ZERO : rest);
    }
}
