package dev.nvidb.queue;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.alerts.Channels;
import dev.nvidb.config.FileTrust;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.QueueConfig;
import dev.nvidb.engine.LogReader;
import dev.nvidb.engine.QueueEngine;
import dev.nvidb.engine.QueueNodes;
import dev.nvidb.engine.TickClient;
import dev.nvidb.engine.TickSettings;
import dev.nvidb.engine.WarmPath;
import dev.nvidb.node.NodeDirectory;
import dev.nvidb.store.Database;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One opened queue and its use cases, one family per class: {@link #submitting()},
 * {@link #control()} (cancel, requeue, priority, note, result, purge), {@link #waiting()},
 * {@link #logs()}, {@link #nodeAdmin()}, {@link #reading()} (jobs, status, events, alerts),
 * {@link #explaining()} ({@code job why}) and
 * {@link #ticking()}, and {@link #passes()} for the daemon. This is the API every front end and
 * the daemon call, and nothing below it: the answers are view records of this package.
 */
public final class Queue implements AutoCloseable {

    private final QueueEngine engine;
    private final Duration logTimeout;
    private final Pause pause;
    private final Path alertsLog;

    /**
     * @param engine     the queue's database, nodes, clock and tick
     * @param logTimeout how long one read of a job's output on its node may take
     * @param pause      how the loops (wait, follow, watch) wait between rounds
     */
    public Queue(QueueEngine engine, Duration logTimeout, Pause pause) {
        this(engine, logTimeout, pause, engine.database().file().toAbsolutePath().resolveSibling("alerts.log"));
    }

    /** As above, with the file the {@code log} channel appends to ({@code $NVIDB_HOME/alerts.log}). */
    public Queue(QueueEngine engine, Duration logTimeout, Pause pause, Path alertsLog) {
        this.engine = engine;
        this.logTimeout = logTimeout;
        this.pause = pause;
        this.alertsLog = alertsLog;
    }

    /**
     * Opens the queue database {@code file} with the queue's nodes from {@code config}.
     *
     * @param directory   builds the node directory (SSH shells) when a node is first needed
     * @param localName   this machine's name as a node
     * @param nodeTimeout how long one node may take to answer one command
     * @param logTimeout  how long one read of a job's output may take
     */
    public static Queue open(Path file, NvidbConfig config, Supplier<NodeDirectory> directory, String localName,
                             Duration nodeTimeout, Duration logTimeout) {
        return open(file, config, directory, localName, nodeTimeout, logTimeout, "", null, WarmPath.NONE);
    }

    /**
     * As above, for a front end that tells who it is: {@code command} is recorded with this
     * client's tick lease, and {@code notices} gets one line when this client waits for another
     * client's tick (whose, and since when); {@code daemon} is the way to this database's daemon,
     * asked for passes while one serves ({@link WarmPath#NONE}: never).
     */
    public static Queue open(Path file, NvidbConfig config, Supplier<NodeDirectory> directory, String localName,
                             Duration nodeTimeout, Duration logTimeout, String command, Consumer<String> notices,
                             WarmPath daemon) {
        FileTrust.requireTrustedDatabase(file);
        QueueNodes nodes = new QueueNodes(config, directory, localName);
        QueueEngine engine = new QueueEngine(Database.open(file), nodes, Clock.systemUTC(),
                new TickSettings(config.queue(), AgentScript.bundled(), nodeTimeout), new TickClient(command, notices), daemon);
        return new Queue(engine, logTimeout, Pause.sleeping(), config.home().alertsLog());
    }

    public Submitting submitting() {
        return new Submitting(engine, this::ticking);
    }

    public JobControl control() {
        return new JobControl(engine, reading());
    }

    public Groups groups() {
        return new Groups(engine, control());
    }

    public Operations operations() {
        return new Operations(engine);
    }

    public StatusReading reading() {
        return new StatusReading(engine);
    }

    /** {@code job why}: why a pending job waits, and where it would fit first. */
    public Explaining explaining() {
        return new Explaining(engine, reading());
    }

    public Waiting waiting() {
        return new Waiting(reading(), ticking(), engine.clock(), pause);
    }

    public LogFollowing logs() {
        return new LogFollowing(new LogReader(engine.nodes(), logTimeout), reading(), ticking(), pause);
    }

    public NodeAdmin nodeAdmin() {
        return new NodeAdmin(engine);
    }

    public Ticking ticking() {
        return new Ticking(engine, pause);
    }

    /**
     * Tick-before-read, the one policy every front end follows: brings the queue up to date as
     * {@code refresh} asks (a due tick, a forced one, or none) and returns it for the read.
     */
    public Queue refreshed(Refresh refresh) {
        switch (refresh) {
            case NOW -> ticking().now();
            case IF_DUE -> ticking().ifDue();
            case NONE -> { }
        }
        return this;
    }

    /**
     * Job-id existence, then tick-before-read: job {@code id} as it is after {@code refresh}. A job
     * that does not exist is a usage error naming it, found before any tick (a wrong id contacts no node).
     */
    public JobView job(long id, Refresh refresh) {
        reading().getJob(id);
        return refreshed(refresh).reading().getJob(id);
    }

    /** Job-id existence for a command naming jobs: a usage error for the first that does not exist, in their order. */
    public void requireJobs(java.util.List<Long> ids) {
        StatusReading reading = reading();
        ids.forEach(reading::getJob);
    }

    /** The daemon's passes, ticking only (no alert delivery: {@code --no-notify}). */
    public Passes passes() {
        return new Passes(engine, pause, null, new Maintenance(engine));
    }

    /**
     * The daemon's passes, delivering alerts on the channels of {@code queue.notify} after each tick.
     *
     * @param environment the caller's environment: PATH for the desktop channel, passed on to the hook
     */
    public Passes passes(Map<String, String> environment) {
        QueueConfig config = engine.settings().queue();
        Delivering delivering = new Delivering(engine.database(),
                Channels.of(config.notifications(), alertsLog, environment), config.notifications(), engine.clock(),
                Duration.ofSeconds(config.backoffMaxSeconds()));
        return new Passes(engine, pause, delivering, new Maintenance(engine));
    }

    /** Backups of the queue database ({@code queue backup}). */
    public Backups backups() {
        return new Backups(engine);
    }

    /** Removal of what is older than {@code queue.retention} allows ({@code queue gc}). */
    public Retention retention() {
        return new Retention(engine);
    }

    @Override
    public void close() {
        engine.close();
    }
}
