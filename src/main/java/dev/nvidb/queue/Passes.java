package dev.nvidb.queue;

import dev.nvidb.engine.QueueEngine;
import dev.nvidb.engine.TickMode;
import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.error.NvidbException;
import dev.nvidb.model.TickReport;
import dev.nvidb.node.ResidentAgents;
import dev.nvidb.store.JobStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;

/**
 * What one pass of the queue's daemon does: tick (placing, settling and enforcing timeouts),
 * then deliver alerts (unless {@code --no-notify}; see {@link Delivering}), then what the pass
 * owes besides (backups and retention, when due). A delivery that fails is reported in the pass
 * and the daemon goes on. Also what a daemon or a submit ticker needs of the queue to run
 * passes: a forced tick, the newest job's id, agents kept on the nodes, and this engine made a
 * daemon's. The loop, the socket and the lingering are {@code daemon}'s ({@code daemon.Daemon},
 * {@code daemon.SubmitTicks}).
 */
public final class Passes {

    private final QueueEngine engine;
    private final Clock clock;
    private final Pause pause;
    private final Delivering delivering;
    private final Maintenance maintenance;

    /**
     * Told when the tick of a pass starts and ends: the daemon's socket answers the commands
     * that asked for that pass ({@code daemon.DaemonServer}).
     */
    public interface TickWatch {
        /** Nobody asks. */
        TickWatch NONE = new TickWatch() {
            @Override
            public long starting() {
                return 0;
            }

            @Override
            public void ended(long pass, TickReport report) {
                // nobody to answer
            }
        };

        /** A pass's tick begins; returns its number, for {@link #ended}. */
        long starting();

        /** The tick of pass {@code pass} has ended ({@code report} null when it failed). */
        void ended(long pass, TickReport report);
    }

    /**
     * @param delivering  the alert delivery after each tick, or null to tick only ({@code --no-notify})
     * @param maintenance backups and retention, done when due after delivery
     */
    Passes(QueueEngine engine, Pause pause, Delivering delivering, Maintenance maintenance) {
        this.engine = engine;
        this.clock = engine.clock();
        this.pause = pause;
        this.delivering = delivering;
        this.maintenance = maintenance;
    }

    /** One pass now, nobody watching its tick. */
    public DaemonPass pass() {
        return pass(TickWatch.NONE);
    }

    /** One pass now; {@code watch} is told when its tick starts and ends. */
    public DaemonPass pass(TickWatch watch) {
        Instant started = clock.instant();
        TickResult tick = Ticking.result(tick(watch));
        DaemonPass pass = notify(new DaemonPass(started, tick, null));
        return pass.withMaintenance(maintenance.due());
    }

    /** A forced tick, nothing else (the submit ticker's); {@code watch} is told when it starts and ends. */
    public TickReport tick(TickWatch watch) {
        long number = watch.starting();
        TickReport report = null;
        try {
            report = engine.tick(TickMode.FORCE);
            return report;
        } finally {
            watch.ended(number, report);
        }
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

    /** The id of the newest job submitted (0 when none): a ticker ticks again when it grows. */
    public long lastJobId() {
        return new JobStore(engine.database()).lastId();
    }

    /**
     * Keeps an agent running on each node until the returned scope closes, so passes cost a
     * request line per node instead of an SSH exec and a python3 start each; the jobs they
     * launch outlive them. An engine that keeps agents already is left as it is.
     */
    public Ticking.AgentScope keepAgents() {
        if (engine.nodes().keepsAgents()) {
            return () -> { };
        }
        ResidentAgents residents = new ResidentAgents(engine.settings().agent());
        engine.nodes().keepAgents(residents);
        return () -> {
            engine.nodes().keepAgents(null);
            residents.close();
        };
    }

    /**
     * Makes this queue's engine a daemon's: its ticks run here from now on, never through the
     * socket (see {@link QueueEngine#becomeDaemon}). Returns the database the daemon serves.
     */
    public Path becomeDaemon() {
        engine.becomeDaemon();
        return engine.database().file();
    }

    /** The queue database's file. */
    public Path database() {
        return engine.database().file();
    }

    public Clock clock() {
        return clock;
    }

    /** How the daemon's loop waits between passes. */
    public Pause pause() {
        return pause;
    }
}
