package dev.nvidb.queue;

import dev.nvidb.engine.QueueEngine;
import dev.nvidb.engine.TickMode;
import dev.nvidb.model.TickReport;
import dev.nvidb.node.ResidentAgents;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Bringing the queue up to date: a scheduler pass now, one when the last is older than
 * {@code tick_min_interval}, or one every interval until interrupted ({@code queue tick --watch}).
 * Ticks are rate-limited and lease-guarded, so many clients make one round of SSH traffic.
 */
public final class Ticking {

    private final QueueEngine engine;
    private final Pause pause;

    Ticking(QueueEngine engine, Pause pause) {
        this.engine = engine;
        this.pause = pause;
    }

    /** What {@link #keepAgents} returns: closing it stops the agents it started. */
    public interface AgentScope extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Keeps an agent running on each node while the returned scope is open, so the several ticks
     * of one command that waits ({@code submit --wait}, {@code job wait}) cost a request line per
     * node after the first instead of an SSH exec and a python3 start each (the launch of the
     * first tick included). The agents of the nodes the next tick will probe start at once, in
     * the background, so their connections overlap what the command does before its first tick;
     * none start when a daemon ticks for this database, and an engine that keeps agents already
     * (a daemon's, a ticker's) is left as it is. Jobs launched meanwhile outlive the agents.
     */
    public AgentScope keepAgents() {
        return keepAgents(Optional.empty());
    }

    /**
     * As {@link #keepAgents()}, with the agents {@code begun} started for this queue before the
     * command opened it (see {@link AgentHeadStart}); the other nodes' agents start now. A head
     * start for another database, or one this engine does not need, is closed.
     */
    public AgentScope keepAgents(Optional<AgentHeadStart> begun) {
        Optional<AgentHeadStart> fits = begun.filter(early -> early.database().equals(engine.database().file()));
        if (engine.nodes().keepsAgents() || fits.isEmpty()) {
            begun.ifPresent(AgentHeadStart::close);
        }
        if (engine.nodes().keepsAgents()) {
            return () -> { };
        }
        ResidentAgents residents = fits.map(AgentHeadStart::residents)
                .orElseGet(() -> new ResidentAgents(engine.settings().agent()));
        // Begun ahead, they keep nothing on a node; their command's line is valid now, so the
        // first tick's requests may ask them to keep their compiled code (nodes that had none).
        residents.allowKeeping();
        engine.nodes().keepAgents(residents, true);
        engine.warmAgents();
        return () -> {
            engine.nodes().keepAgents(null);
            residents.close();
        };
    }

    /**
     * Waits at most {@code longest} for one of the attempt directories {@code dirsByNode} to get
     * its exit status, watched by the agent this command keeps on their node (see
     * {@link QueueEngine#awaitExit}): those that have, as soon as one has; empty, without having
     * waited, when this command keeps no agents of its own there.
     */
    public Optional<List<String>> awaitExit(Map<String, List<String>> dirsByNode, Duration longest) {
        return engine.awaitExit(dirsByNode, longest);
    }

    /** A pass now (never two at once: if another client is ticking, its result is awaited). */
    public TickResult now() {
        return result(engine.tick(TickMode.FORCE));
    }

    /**
     * A pass unless the last one ended less than {@code freshness} ago (at most
     * {@code tick_min_interval}): for a waiter that wants to see a short job end soon.
     */
    public TickResult ifOlderThan(Duration freshness) {
        return result(engine.tickIfOlderThan(freshness));
    }

    /**
     * Asks the queue's daemon for a pass soon, without waiting: true when a daemon serves this
     * database and took the request (a submit then needs no ticker of its own).
     */
    public boolean wakeDaemon() {
        return engine.wakeDaemon();
    }

    /** The queue database's file, as a submit ticker started for it must be told. */
    public java.nio.file.Path databaseFile() {
        return engine.database().file();
    }

    /** A pass unless the last one is younger than {@code tick_min_interval}. */
    public TickResult ifDue() {
        return result(engine.tick(TickMode.IF_DUE));
    }

    /**
     * Ticks now and then every {@code interval}, giving each result to {@code each}, until
     * {@code each} answers false or the pause is interrupted.
     */
    public void watch(Duration interval, Predicate<TickResult> each) {
        while (each.test(now())) {
            pause.pause(interval);
        }
    }

    static TickResult result(TickReport report) {
        return new TickResult(report.ran(), report.answered(), report.failed(), report.skipped(), report.settled(),
                report.placed(), report.duration());
    }
}
