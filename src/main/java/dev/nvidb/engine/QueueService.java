package dev.nvidb.engine;

import dev.nvidb.error.UsageException;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import dev.nvidb.model.JobState;
import dev.nvidb.store.AlertStore;
import dev.nvidb.store.Database;
import dev.nvidb.store.Event;
import dev.nvidb.store.EventStore;
import dev.nvidb.store.Expected;
import dev.nvidb.store.JobAnnotations;
import dev.nvidb.store.JobFilter;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.JobTransitions;
import dev.nvidb.store.MetaStore;
import dev.nvidb.store.NodeRecord;
import dev.nvidb.store.NodeStore;
import dev.nvidb.store.ReapStore;
import dev.nvidb.store.StoredJob;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the queue commands call: submit, read, annotate and administer jobs and nodes, and run
 * the tick. Every change is a compare-and-set in the store, so none of these calls fails
 * because another client is ticking.
 */
public final class QueueService implements AutoCloseable {

    private final Database database;
    private final QueueNodes nodes;
    private final Clock clock;
    private final TickSettings settings;
    private final JobStore jobs;
    private final JobAnnotations annotations;
    private final EventStore events;
    private final NodeStore nodeStore;
    private final PendingReasons reasons;
    private final JobTransitions transitions;

    public QueueService(Database database, QueueNodes nodes, Clock clock, TickSettings settings) {
        this.database = database;
        this.nodes = nodes;
        this.clock = clock;
        this.settings = settings;
        this.jobs = new JobStore(database);
        this.annotations = new JobAnnotations(database);
        this.events = new EventStore(database);
        this.nodeStore = new NodeStore(database);
        this.reasons = new PendingReasons(database);
        this.transitions = new JobTransitions(database);
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

    /** Records a new pending job and returns its id. */
    public long submit(SubmitRequest request) {
        JobSpec spec = Submission.spec(request, nodes);
        return jobs.insert(spec, request.priority(), request.note(), clock.instant());
    }

    /** The job, or a usage error saying there is no such job. */
    public JobView getJob(long id) {
        StoredJob stored = jobs.findJob(id).orElseThrow(() -> new UsageException("no job " + id,
                "see 'nvidb job ls' for the ids the queue knows"));
        return view(stored, reasons.read());
    }

    /** Jobs matching {@code filter}, in id order. */
    public List<JobView> listJobs(JobFilter filter) {
        Map<Long, String> pending = reasons.read();
        return jobs.listJobs(filter).stream().map(stored -> view(stored, pending)).toList();
    }

    private static JobView view(StoredJob stored, Map<Long, String> pending) {
        Job job = stored.job();
        String reason = job.state() == JobState.PENDING
                ? pending.getOrDefault(job.id(), "waiting for the next scheduler pass") : null;
        return new JobView(job, reason, stored.unverifiedSince(), stored.jobDir());
    }

    /** Replaces the note (null clears it). */
    public void setNote(long id, String note) {
        getJob(id);
        annotations.setNote(id, note);
    }

    /** Appends a line to the note. */
    public void appendNote(long id, String line) {
        getJob(id);
        annotations.appendNote(id, line);
    }

    /** Stores a result document for the job (JSON text, already validated). */
    public void setResult(long id, String json) {
        getJob(id);
        annotations.setResult(id, json);
    }

    /** Sets the priority of a job. */
    public void setPriority(long id, int priority) {
        getJob(id);
        annotations.setPriority(id, priority, clock.instant());
    }

    /**
     * Moves a pending job {@code places} earlier (positive) or later (negative) in dispatch
     * order by giving it a priority just above (below) the job it is to pass last. Returns the
     * new priority.
     */
    public int move(long id, int places) {
        JobView job = getJob(id);
        if (job.job().state() != JobState.PENDING) {
            throw new UsageException("job " + id + " is " + job.job().state().key() + "; only pending jobs can be moved",
                    "set its priority instead: nvidb job priority " + id + " N");
        }
        List<Job> order = jobs.listJobs(JobFilter.inStates(JobState.PENDING)).stream().map(StoredJob::job)
                .sorted(Comparator.comparingInt(Job::priority).reversed().thenComparingLong(Job::id))
                .toList();
        int index = order.indexOf(order.stream().filter(other -> other.id() == id).findFirst().orElseThrow());
        int target = Math.max(0, Math.min(order.size() - 1, index - places));
        if (target == index) {
            return job.job().priority();
        }
        int priority = places > 0 ? order.get(target).priority() + 1 : order.get(target).priority() - 1;
        annotations.setPriority(id, priority, clock.instant());
        return priority;
    }

    /** What a cancel or requeue did to one job. */
    public record Change(long id, boolean changed, String state, String message) {
    }

    /**
     * Cancels pending and running jobs. A running job's kill is recorded in the same
     * transaction and sent at once to its node (TERM to its process group, KILL after the
     * grace period); if the node is unreachable, the first probe that reaches it kills it.
     */
    public List<Change> cancel(List<Long> ids) {
        return changes().cancel(ids);
    }

    /**
     * Puts jobs back to pending to run again (a new attempt; the note stays, progress is
     * cleared), or releases a held job. A running job is killed first, as by cancel.
     */
    public List<Change> requeue(List<Long> ids) {
        return changes().requeue(ids);
    }

    private JobChanges changes() {
        return new JobChanges(this, transitions, annotations, new Reaper(database, nodes, settings, clock), clock);
    }

    /**
     * The queue in one read, from the database (nodes as of their last answer): every queue
     * node, the jobs shown (all active ones plus the {@code recent} most recently finished),
     * counts by state, open alerts, and kills still owed.
     */
    public QueueStatus status(boolean includeIgnored, int recent) {
        return database.read("read the queue status", conn -> {
            List<StoredJob> all = jobs.listJobs(conn, JobFilter.all());
            Map<String, NodeRecord> records = new HashMap<>();
            new NodeStore(database).listNodes(conn).forEach(record -> records.put(record.name(), record));
            StatusReader reader = new StatusReader(settings.queue().headroomMb());
            List<NodeView> views = new ArrayList<>();
            for (String name : nodes.names()) {
                NodeView view = reader.node(name, records.get(name), all);
                if (includeIgnored || !view.ignored()) {
                    views.add(view);
                }
            }
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (JobState state : JobState.values()) {
                counts.put(state.key(), 0);
            }
            all.forEach(job -> counts.merge(job.job().state().key(), 1, Integer::sum));
            Map<Long, String> pending = reasons.read();
            List<StoredJob> finished = all.stream().filter(job -> job.job().state().finished())
                    .sorted(Comparator.comparing(job -> job.job().finishedAt())).toList();
            Set<Long> recentIds = new HashSet<>();
            finished.subList(Math.max(0, finished.size() - recent), finished.size())
                    .forEach(job -> recentIds.add(job.id()));
            List<JobView> shown = new ArrayList<>();
            for (StoredJob job : all) {
                if (!job.job().state().finished() || recentIds.contains(job.id())) {
                    shown.add(view(job, pending));
                }
            }
            return new QueueStatus(views, shown, counts, new AlertStore(database).listOpen(conn),
                    new ReapStore(database).list(conn, null).size(),
                    new MetaStore(database).getInstant(conn, MetaStore.LAST_TICK_AT)
                            .orElse(null));
        });
    }

    /** Forgets finished jobs in {@code states}; returns the ids removed. */
    public List<Long> purge(Set<JobState> states) {
        return jobs.purge(states, clock.instant());
    }

    /** Open alerts, oldest first. */
    public List<dev.nvidb.store.Alert> openAlerts() {
        return new AlertStore(database).listOpen();
    }

    /**
     * Acknowledges one alert, or every open one when {@code id} is null; returns how many
     * were acknowledged. An unknown id is a usage error.
     */
    public int acknowledge(Long id) {
        AlertStore alerts = new AlertStore(database);
        if (id == null) {
            return alerts.acknowledgeAll(clock.instant());
        }
        if (alerts.acknowledge(id, clock.instant())) {
            return 1;
        }
        boolean open = alerts.listOpen().stream().anyMatch(alert -> alert.id() == id);
        throw new UsageException(open ? "alert " + id + " changed meanwhile" : "no open alert " + id,
                "see 'nvidb queue alerts'");
    }

    /** The newest event id (0 when there is none). */
    public long lastEventId() {
        return events.lastId();
    }

    /** The event log after {@code cursor}, optionally for one job. */
    public List<Event> events(long cursor, Long jobId, int limit) {
        return events.listSince(cursor, jobId, limit);
    }

    /** Stops or restarts placements on a node; returns whether anything changed. */
    public boolean drain(String typed, boolean drain) {
        String name = nodes.resolve(typed);
        return drain ? nodeStore.drain(name, clock.instant()) : nodeStore.resume(name, clock.instant());
    }

    /** Stops or restarts probing and scheduling a node; returns whether anything changed. */
    public boolean ignore(String typed, boolean ignore) {
        String name = nodes.resolve(typed);
        return ignore ? nodeStore.ignore(name, clock.instant()) : nodeStore.unignore(name, clock.instant());
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
        TickGuard guard = new TickGuard(database, clock, lease, minInterval, wait);
        return guard.run(mode, () -> new Tick(database, nodes, settings, clock).run()).orElse(TickReport.notRun());
    }

    @Override
    public void close() {
        database.close();
    }
}
