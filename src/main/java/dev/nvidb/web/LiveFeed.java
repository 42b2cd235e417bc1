package dev.nvidb.web;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.model.ProbeResult;
import dev.nvidb.monitor.Backoff;
import dev.nvidb.monitor.LiveProbes;
import dev.nvidb.monitor.Prober;
import dev.nvidb.node.Node;
import dev.nvidb.node.ResidentAgents;
import dev.nvidb.output.JsonMonitor;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The Live view's data: the monitor's probing workers ({@link LiveProbes}, one per node, through a
 * resident agent per node), started when the page first asks and stopped, agents and all, once
 * nobody has asked for {@link #IDLE}, so an idle dashboard costs the nodes nothing. This machine
 * alone and this machine with the configured servers are two feeds, each kept only while polled.
 */
public final class LiveFeed implements AutoCloseable {

    /** How long a feed runs without a request. */
    public static final Duration IDLE = Duration.ofSeconds(60);
    /** The pause between two probes of a node that answers (the page's fastest refresh). */
    public static final Duration INTERVAL = Duration.ofSeconds(1);

    /** Which nodes a feed probes. */
    public enum Scope { LOCAL, WITH_SERVERS }

    /** One running feed: its agents, its workers, when it was last read. */
    private static final class Running {
        final ResidentAgents residents;
        final LiveProbes probes;
        Instant lastRead;

        Running(ResidentAgents residents, LiveProbes probes, Instant lastRead) {
            this.residents = residents;
            this.probes = probes;
            this.lastRead = lastRead;
        }

        void stop() {
            probes.close();
            residents.close();
        }
    }

    private final Function<Scope, List<Node>> nodes;
    private final Duration timeout;
    private final String jobRoot;
    private final Clock clock;
    private final Duration idle;
    private final Map<Scope, Running> running = new EnumMap<>(Scope.class);
    private final ScheduledExecutorService reaper;

    /**
     * @param nodes   the nodes of each scope, in display order (called when a feed starts)
     * @param timeout how long one node may take to answer one probe
     * @param jobRoot where the nodes measure free disk
     */
    public LiveFeed(Function<Scope, List<Node>> nodes, Duration timeout, String jobRoot) {
        this(nodes, timeout, jobRoot, Clock.systemUTC(), IDLE);
    }

    LiveFeed(Function<Scope, List<Node>> nodes, Duration timeout, String jobRoot, Clock clock, Duration idle) {
        this.nodes = nodes;
        this.timeout = timeout;
        this.jobRoot = jobRoot;
        this.clock = clock;
        this.idle = idle;
        this.reaper = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "web-live-reaper");
            thread.setDaemon(true);
            return thread;
        });
        long period = Math.max(100, Math.min(5_000, idle.toMillis() / 4));
        reaper.scheduleWithFixedDelay(this::stopIdle, period, period, TimeUnit.MILLISECONDS);
    }

    /** {@code /api/live}: every node of the scope as last probed, starting the feed if it is not running. */
    JsonLive read(Scope scope) {
        List<LiveProbes.NodeState> states;
        synchronized (this) {
            Running feed = running.get(scope);
            if (feed == null) {
                feed = start(scope);
                running.put(scope, feed);
            }
            feed.lastRead = clock.instant();
            states = feed.probes.nodes();
        }
        return document(scope, states, clock.instant());
    }

    /** Which scopes have probes running now (for tests and the idle check). */
    synchronized List<Scope> runningScopes() {
        return new ArrayList<>(running.keySet());
    }

    private Running start(Scope scope) {
        ResidentAgents residents = new ResidentAgents(AgentScript.bundled());
        Prober prober = new Prober(AgentScript.bundled(), timeout, jobRoot, residents);
        LiveProbes probes = new LiveProbes(nodes.apply(scope), prober::probe, new Backoff(INTERVAL), clock);
        probes.start();
        return new Running(residents, probes, clock.instant());
    }

    private void stopIdle() {
        List<Running> stale = new ArrayList<>();
        synchronized (this) {
            Instant now = clock.instant();
            running.entrySet().removeIf(entry -> {
                boolean old = !entry.getValue().lastRead.plus(idle).isAfter(now);
                if (old) {
                    stale.add(entry.getValue());
                }
                return old;
            });
        }
        stale.forEach(Running::stop);
    }

    private static JsonLive document(Scope scope, List<LiveProbes.NodeState> states, Instant now) {
        List<ProbeResult> results = states.stream().map(LiveProbes.NodeState::latest)
                .filter(java.util.Objects::nonNull).toList();
        JsonMonitor probed = JsonMonitor.of(results);
        List<JsonMonitor.JsonMonitorNode> nodes = new ArrayList<>();
        int next = 0;
        for (LiveProbes.NodeState state : states) {
            if (state.latest() == null) {
                nodes.add(new JsonMonitor.JsonMonitorNode(state.node().name(), state.address(), "probing", null, null,
                        null, null, null, null, null, null, null, 0, List.of(), null));
            } else {
                nodes.add(probed.nodes().get(next++));
            }
        }
        return new JsonLive(dev.nvidb.output.Json.SCHEMA_VERSION, scope == Scope.WITH_SERVERS, JsonTimes.seconds(now),
                probed.capacity(), nodes);
    }

    @Override
    public void close() {
        reaper.shutdownNow();
        List<Running> all;
        synchronized (this) {
            all = new ArrayList<>(running.values());
            running.clear();
        }
        all.forEach(Running::stop);
    }
}
