package dev.nvidb.engine;

import dev.nvidb.store.Database;
import dev.nvidb.store.StoredJob;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The engine as the use cases of {@code dev.nvidb.queue} see it: the queue's database, its
 * nodes, the clock and settings, and the tick (see {@link Tick}). The use cases compose store
 * calls themselves; what needs the engine's internals (pending reasons, kills owed, the tick
 * guard) is offered here.
 */
public final class QueueEngine implements AutoCloseable {

    private final Database database;
    private final QueueNodes nodes;
    private final Clock clock;
    private final TickSettings settings;
    private final TickClient client;

    public QueueEngine(Database database, QueueNodes nodes, Clock clock, TickSettings settings) {
        this(database, nodes, clock, settings, TickClient.quiet());
    }

    /** @param client what this client runs and where its notices go while it waits for another's tick */
    public QueueEngine(Database database, QueueNodes nodes, Clock clock, TickSettings settings, TickClient client) {
        this.database = database;
        this.nodes = nodes;
        this.clock = clock;
        this.settings = settings;
        this.client = client;
    }

    public Database database() {
        return database;
    }

    public QueueNodes nodes() {
        return nodes;
    }

    public Clock clock() {
        return clock;
    }

    public TickSettings settings() {
        return settings;
    }

    /** Why each pending job waits, as the last scheduler pass said (by job id). */
    public Map<Long, String> pendingReasons() {
        return new PendingReasons(database).read();
    }

    /**
     * Sends at once the kills owed on {@code nodeNames} (recorded in the store by a cancel or
     * requeue); a node that does not answer gets them from the first probe that reaches it.
     */
    public void reapNow(List<String> nodeNames) {
        new Reaper(database, nodes, settings, clock).reapNow(nodeNames);
    }

    /**
     * Asks the nodes of these running jobs about them now and records what ended (by its exit
     * file), so that a cancel that follows cannot contradict an exit the node already recorded;
     * returns the ids a node answered about. See {@link Reaper#settleNow}.
     */
    public Set<Long> settleNow(List<StoredJob> running) {
        return new Reaper(database, nodes, settings, clock).settleNow(running);
    }

    /**
     * Brings the queue up to date (probe, settle, plan, launch; see {@link Tick}) unless the
     * last tick is fresh enough or another client's tick is in progress, whose result is then
     * awaited.
     */
    public TickReport tick(TickMode mode) {
        return tick(mode, Duration.ofSeconds(settings.queue().tickMinInterval()));
    }

    /**
     * Ticks unless the last tick ended less than {@code freshness} ago (never longer than
     * {@code tick_min_interval}): a waiter whose job just started asks more often than a
     * reader, so a short job's end is seen in tenths of a second, not seconds.
     */
    public TickReport tickIfOlderThan(Duration freshness) {
        Duration configured = Duration.ofSeconds(settings.queue().tickMinInterval());
        return tick(TickMode.IF_DUE, freshness.compareTo(configured) < 0 ? freshness : configured);
    }

    private TickReport tick(TickMode mode, Duration minInterval) {
        Duration lease = Duration.ofSeconds(Math.max(5, settings.queue().leaseSeconds()));
        Duration wait = lease.plus(settings.nodeTimeout()).plus(settings.nodeTimeout());
        TickGuard guard = new TickGuard(database, clock, lease, minInterval, wait, client);
        return guard.run(mode, () -> new Tick(database, nodes, settings, clock).run()).orElse(TickReport.notRun());
    }

    @Override
    public void close() {
        database.close();
    }
}
