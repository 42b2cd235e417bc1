package dev.nvidb.queue;

import dev.nvidb.engine.QueueEngine;
import dev.nvidb.error.Missing;
import dev.nvidb.error.UsageException;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.store.Alert;
import dev.nvidb.store.AlertStore;
import dev.nvidb.store.Event;
import dev.nvidb.store.EventStore;
import dev.nvidb.store.JobFilter;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.Lease;
import dev.nvidb.store.MetaStore;
import dev.nvidb.store.NodeRecord;
import dev.nvidb.store.NodeStore;
import dev.nvidb.store.ReapStore;
import dev.nvidb.store.RecordedTimes;
import dev.nvidb.store.StoredJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reading the queue: one job, a list of jobs, the whole status (nodes with budgets, jobs,
 * counts, alerts), the event log by cursor, and open alerts with their acknowledgement. Reads
 * come from the database (nodes as of their last answer); bringing it up to date first is
 * {@link Ticking}'s job.
 */
public final class StatusReading {

    private final QueueEngine engine;
    private final JobStore jobs;

    StatusReading(QueueEngine engine) {
        this.engine = engine;
        this.jobs = JobStore.tolerant(engine.database());
    }

    /** The job, or a usage error saying there is no such job. */
    public JobView getJob(long id) {
        StoredJob stored = jobs.findJob(id).orElseThrow(() -> Missing.job(id));
        return view(stored, engine.pendingReasons());
    }

    /** Where {@link #eachJob} hands a listing: how many jobs it holds, then each in id order. */
    public interface JobListing {
        void count(int jobs);

        void job(JobView view);
    }

    /**
     * The jobs of {@link #listJobs}, handed to {@code listing} a page of rows at a time in one
     * read: a listing of any length is written out in bounded memory.
     */
    public void eachJob(JobSelection query, JobListing listing) {
        if (query.limit() != null && query.limit() < 0) {
            throw new UsageException("-n must be 0 or more, got " + query.limit());
        }
        String node = query.node() == null ? null : engine.nodes().resolve(query.node());
        Map<Long, String> pending = engine.pendingReasons();
        JobFilter filter = new JobFilter(query.states(), node, query.limit(), query.group());
        engine.database().read("list jobs", conn -> {
            listing.count(jobs.countJobs(conn, filter));
            jobs.eachJob(conn, filter, stored -> listing.job(view(stored, pending)));
            return null;
        });
    }

    /** Jobs matching {@code query}, in id order; its node may be typed as a unique prefix. */
    public List<JobView> listJobs(JobSelection query) {
        if (query.limit() != null && query.limit() < 0) {
            throw new UsageException("-n must be 0 or more, got " + query.limit());
        }
        String node = query.node() == null ? null : engine.nodes().resolve(query.node());
        Map<Long, String> pending = engine.pendingReasons();
        return jobs.listJobs(new JobFilter(query.states(), node, query.limit(), query.group())).stream()
                .map(stored -> view(stored, pending)).toList();
    }

    static JobView view(StoredJob stored, Map<Long, String> pending) {
        Job job = stored.job();
        String reason = job.state() == JobState.PENDING
                ? pending.getOrDefault(job.id(), "waiting for the next scheduler pass") : null;
        return new JobView(job, reason, stored.unverifiedSince(), stored.jobDir(), stored.damage(),
                stored.oomRetries());
    }

    /**
     * The queue in one read, from the database (nodes as of their last answer): every queue
     * node, the jobs shown (all active ones plus the {@code recent} most recently finished),
     * counts by state, open alerts, and kills still owed.
     */
    public QueueStatus status(boolean includeIgnored, int recent) {
        return engine.database().read("read the queue status", conn -> {
            // Active jobs and the latest finished ones only: a long history is counted, never read.
            List<StoredJob> active = jobs.listJobs(conn, JobFilter.active());
            Map<String, NodeRecord> records = new HashMap<>();
            new NodeStore(engine.database()).listNodes(conn).forEach(record -> records.put(record.name(), record));
            NodeViews reader = new NodeViews(engine.settings().queue().headroomMb());
            List<NodeView> views = new ArrayList<>();
            for (String name : engine.nodes().names()) {
                NodeView view = reader.node(name, records.get(name), active);
                if (includeIgnored || !view.ignored()) {
                    views.add(view);
                }
            }
            Map<String, Integer> stored = jobs.countByState(conn);
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (JobState state : JobState.values()) {
                counts.put(state.key(), stored.getOrDefault(state.key(), 0));
            }
            Map<Long, String> pending = engine.pendingReasons();
            List<StoredJob> shownJobs = new ArrayList<>(active);
            shownJobs.addAll(jobs.recentlyFinished(conn, recent));
            shownJobs.sort(Comparator.comparingLong(StoredJob::id));
            List<JobView> shown = new ArrayList<>();
            for (StoredJob job : shownJobs) {
                shown.add(view(job, pending));
            }
            List<AlertView> alerts = new AlertStore(engine.database()).listOpen(conn).stream()
                    .map(StatusReading::alert).toList();
            return new QueueStatus(views, shown, counts, alerts,
                    new ReapStore(engine.database()).list(conn, null).size(),
                    new MetaStore(engine.database()).getInstant(conn, MetaStore.LAST_TICK_AT).orElse(null),
                    clockSkew(RecordedTimes.latest(conn), engine.clock().instant()),
                    Delivering.status(engine.database(), engine.settings().queue().notifications()),
                    new QueueStatus.Storage(databaseBytes(engine.database().file()),
                            new MetaStore(engine.database()).getInstant(conn, Backups.LAST_BACKUP_AT).orElse(null)));
        });
    }

    /** The size of {@code queue.db} with its write-ahead log (what the queue takes on disk). */
    static long databaseBytes(java.nio.file.Path file) {
        long bytes = 0;
        for (java.nio.file.Path part : List.of(file, java.nio.file.Path.of(file + "-wal"))) {
            try {
                bytes += java.nio.file.Files.size(part);
            } catch (java.io.IOException | SecurityException absent) {
                // No write-ahead log right now (every connection closed cleanly).
            }
        }
        return bytes;
    }

    /**
     * The recorded time furthest ahead of {@code now}, when one is ahead by more than
     * {@link Lease#SKEW_TOLERANCE}; null otherwise.
     */
    static ClockSkew clockSkew(List<RecordedTimes.Stamp> stamps, Instant now) {
        Instant trusted = now.plus(Lease.SKEW_TOLERANCE);
        return stamps.stream().filter(stamp -> stamp.at().isAfter(trusted))
                .max(Comparator.comparing(RecordedTimes.Stamp::at))
                .map(stamp -> new ClockSkew(stamp.what(), stamp.at(), Duration.between(now, stamp.at())))
                .orElse(null);
    }

    /** Open alerts, oldest first. */
    public List<AlertView> openAlerts() {
        return new AlertStore(engine.database()).listOpen().stream().map(StatusReading::alert).toList();
    }

    /**
     * Acknowledges one alert, or every open one when {@code id} is null; returns how many
     * were acknowledged. An unknown id is a usage error.
     */
    public int acknowledge(Long id) {
        AlertStore alerts = new AlertStore(engine.database());
        if (id == null) {
            return alerts.acknowledgeAll(engine.clock().instant());
        }
        if (alerts.acknowledge(id, engine.clock().instant())) {
            return 1;
        }
        boolean open = alerts.listOpen().stream().anyMatch(alert -> alert.id() == id);
        throw open ? new UsageException("alert " + id + " changed meanwhile", "see 'nvidb queue alerts'") : Missing.alert(id);
    }

    /** The newest event id (0 when there is none). */
    public long lastEventId() {
        return new EventStore(engine.database()).lastId();
    }

    /** At most {@code limit} events after {@code cursor}, optionally about one job. */
    public List<EventView> events(long cursor, Long jobId, int limit) {
        return new EventStore(engine.database()).listSince(cursor, jobId, Math.max(1, limit)).stream()
                .map(StatusReading::event).toList();
    }

    private static AlertView alert(Alert alert) {
        return new AlertView(alert.id(), alert.at(), alert.key(), alert.kind(), alert.severity(), alert.jobId(),
                alert.node(), alert.message(), alert.detail(), alert.acknowledgedAt());
    }

    private static EventView event(Event event) {
        return new EventView(event.id(), event.at(), event.jobId(), event.node(), event.kind(), event.detail());
    }
}
