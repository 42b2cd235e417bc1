package dev.nvidb.engine;

import dev.nvidb.agent.ExitWatch;
import dev.nvidb.error.NvidbException;
import dev.nvidb.model.TickReport;
import dev.nvidb.node.Node;
import dev.nvidb.node.ResidentAgents;
import dev.nvidb.store.Database;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.MetaStore;
import dev.nvidb.store.NodeStore;
import dev.nvidb.store.PendingReasonStore;
import dev.nvidb.store.StoredJob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    private final WarmPath daemon;
    /** True once this engine is a daemon's (serving the warm path or not): its ticks run here, never ask the socket. */
    private volatile boolean daemonItself;

    /** An engine that never asks a daemon: every tick runs here. */
    public QueueEngine(Database database, QueueNodes nodes, Clock clock, TickSettings settings) {
        this(database, nodes, clock, settings, TickClient.quiet(), WarmPath.NONE);
    }

    /** As below, never asking a daemon. */
    public QueueEngine(Database database, QueueNodes nodes, Clock clock, TickSettings settings, TickClient client) {
        this(database, nodes, clock, settings, client, WarmPath.NONE);
    }

    /**
     * @param client what this client runs and where its notices go while it waits for another's tick
     * @param daemon the way to this database's daemon, asked for passes while one serves
     */
    public QueueEngine(Database database, QueueNodes nodes, Clock clock, TickSettings settings, TickClient client,
                       WarmPath daemon) {
        this.database = database;
        this.nodes = nodes;
        this.clock = clock;
        this.settings = settings;
        this.client = client;
        this.daemon = daemon;
        nodes.identify(this::queueId);
    }

    /**
     * This queue's random id ({@link QueueIdentity}: the one its job directories live under),
     * made and stored the first time a request to a node needs it: other queues on a shared node
     * tell its claims from theirs by it (docs/sharing.md).
     */
    public String queueId() {
        MetaStore meta = new MetaStore(database);
        return meta.get(QueueIdentity.KEY).orElseGet(() -> database.write("name the queue", QueueIdentity.of(meta)));
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
        return new PendingReasonStore(database).read();
    }

    /**
     * What the scheduler would plan with now if every node answered as it last did: the queue,
     * each node's last stored answer (a node whose last probe failed as not answering), the
     * policy. Contacts no node ({@code job why}).
     */
    public PlanningInput storedPlanningInput() {
        return database.read("read the queue for planning", PlanningInput.read(JobStore.tolerant(database),
                new NodeStore(database), new dev.nvidb.store.GroupStore(database), nodes, settings,
                PlanningInput::lastStoredAnswer));
    }

    /**
     * Sends at once the kills owed on {@code nodeNames} (recorded in the store by a cancel or
     * requeue); a node that does not answer gets them from the first probe that reaches it.
     */
    public void reapNow(List<String> nodeNames) {
        if (!nodeNames.isEmpty() && askDaemon() && daemon.sync(false, tickWait()).isPresent()) {
            return; // the daemon's pass sent them over its open connections, as every tick sends owed kills
        }
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

    /**
     * Asks the queue's daemon, when one serves this database, for a pass soon and returns at
     * once; false when none took the request (the caller then ticks, or starts a ticker).
     */
    public boolean wakeDaemon() {
        return askDaemon() && daemon.wake();
    }

    /** Whether a tick of this engine may be handed to a daemon: one seems to serve, and it is not this engine. */
    private boolean askDaemon() {
        return !daemonItself && daemon.present();
    }

    /**
     * Starts the kept agents ({@link QueueNodes#keepAgents}) of the nodes the next tick will probe
     * (not ignored, not backing off after failures), without waiting, so their SSH connections
     * and python3 starts overlap what the caller does first; nothing when no agents are kept or a
     * daemon ticks for this database.
     */
    public void warmAgents() {
        ResidentAgents residents = nodes.residents();
        if (residents == null || askDaemon()) {
            return;
        }
        residents.warm(nodes.probedAt(new NodeStore(database).listNodes(), clock.instant(),
                Duration.ofSeconds(settings.queue().backoffMaxSeconds())));
    }

    /**
     * Waits at most {@code longest} for one of the attempt directories {@code dirsByNode} (as
     * stored: {@code ~} is the node's home) to get its exit status, by asking the agent this
     * command keeps on their node to watch them ({@link ExitWatch}): those that
     * have as soon as one has, none once {@code longest} passed. Empty when it cannot watch, and
     * then it has not waited: no agents of this command's own ({@link QueueNodes#keepAgents(
     * ResidentAgents, boolean)}), a daemon ticks for this database, a Slurm node,
     * a node without a kept agent, or trouble asking (the next tick meets and reports that).
     * Only the first node with a kept agent is watched; jobs elsewhere are seen by the ticks.
     */
    public Optional<List<String>> awaitExit(Map<String, List<String>> dirsByNode, Duration longest) {
        ResidentAgents own = nodes.ownedAgents();
        if (own == null || askDaemon()) {
            return Optional.empty();
        }
        for (Map.Entry<String, List<String>> entry : dirsByNode.entrySet()) {
            Optional<Node> node = nodes.findNode(entry.getKey());
            if (entry.getValue().isEmpty() || nodes.slurm(entry.getKey()) != null || node.isEmpty()
                    || !own.keeps(entry.getKey())) {
                continue;
            }
            try {
                return own.ask(node.get(), ExitWatch.request(entry.getValue(), longest),
                                longest.plus(settings.nodeTimeout()))
                        .flatMap(ExitWatch::exited);
            } catch (NvidbException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** True when a daemon seems to serve this database (its socket exists): commands then ask it to tick. */
    public boolean daemonPresent() {
        return askDaemon();
    }

    /**
     * The report of the daemon's next pass, one that starts after this call; empty when no
     * daemon answered in time (or none serves this database).
     */
    public Optional<TickReport> tickByDaemon() {
        return askDaemon() ? daemon.sync(false, tickWait()) : Optional.empty();
    }

    private Duration tickWait() {
        Duration lease = Duration.ofSeconds(Math.max(5, settings.queue().leaseSeconds()));
        return lease.plus(settings.nodeTimeout()).plus(settings.nodeTimeout());
    }

    /**
     * Makes this engine a daemon's (or a submit ticker's): from now on its ticks run here and
     * never ask the socket, also in the second daemon of a database, which does not serve it
     * (handing its ticks to the first would hold its passes, and its deliveries, behind the
     * first's). Whoever calls this then tries to serve the socket itself.
     */
    public void becomeDaemon() {
        daemonItself = true;
    }

    private TickReport tick(TickMode mode, Duration minInterval) {
        Duration lease = Duration.ofSeconds(Math.max(5, settings.queue().leaseSeconds()));
        Duration wait = tickWait();
        if (askDaemon()) {
            // The warm path: the daemon's open SSH sessions tick in tenths of a second what this
            // process would need a second or more of connecting for. No answer: tick here as ever.
            if (mode == TickMode.IF_DUE && freshEnough(minInterval)) {
                return TickReport.notRun();
            }
            Optional<TickReport> answered = daemon.sync(mode == TickMode.IF_DUE, wait);
            if (answered.isPresent()) {
                return answered.get();
            }
        }
        TickGuard guard = new TickGuard(database, clock, lease, minInterval, wait, client);
        return guard.run(mode, () -> new Tick(database, nodes, settings, clock).run()).orElse(TickReport.notRun());
    }

    /** Whether a tick ended within {@code minInterval} (as {@link TickGuard} decides, without taking the lease). */
    private boolean freshEnough(Duration minInterval) {
        MetaStore meta = new MetaStore(database);
        Instant now = clock.instant();
        return database.read("read the last tick", conn -> TickGuard.fresh(TickMode.IF_DUE, now, now, minInterval,
                meta.getInstant(conn, MetaStore.LAST_TICK_STARTED_AT), meta.getInstant(conn, MetaStore.LAST_TICK_AT)));
    }

    @Override
    public void close() {
        database.close();
    }
}
