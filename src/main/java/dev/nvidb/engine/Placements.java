package dev.nvidb.engine;

import dev.nvidb.agent.JobQuery;
import dev.nvidb.model.Assignment;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.scheduler.Placement;
import dev.nvidb.scheduler.Plan;
import dev.nvidb.store.Database;
import dev.nvidb.store.Expected;
import dev.nvidb.store.JobTransitions;
import dev.nvidb.store.MetaStore;
import dev.nvidb.store.PendingReasonStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Commits a plan in one transaction, before anything is launched: jobs that can never run
 * fail with their reason, overdue jobs become {@code timeout} (owing a kill), and each
 * placement is written with a fresh launch token. Only placements whose compare-and-set won
 * are launched, so a job cancelled meanwhile is never started.
 */
final class Placements {

    private final Database database;
    private final QueueNodes nodes;
    private final TickSettings settings;
    private final Alerts alerts;
    private final JobTransitions transitions;
    private final MetaStore meta;
    private final PendingReasonStore reasons;

    Placements(Database database, QueueNodes nodes, TickSettings settings, Alerts alerts, Clock clock) {
        this.nodes = nodes;
        this.database = database;
        this.settings = settings;
        this.alerts = alerts;
        this.transitions = new JobTransitions(database);
        this.meta = new MetaStore(database);
        this.reasons = new PendingReasonStore(database);
    }

    /** A job to launch: the job with its new assignment, and its attempt directory on the node. */
    record Launch(Job job, Assignment assignment, String dir) {
    }

    /**
     * Applies the plan; returns the launches it committed, by node. Every transition is a
     * compare-and-set on the state and attempt of the job as the planner saw it ({@code seen}),
     * never on a row read now: a job cancelled, requeued or purged since the plan was made
     * keeps what happened to it, and the stale part of the plan is dropped.
     */
    Map<String, List<Launch>> commit(Plan plan, Map<Long, Job> seen, Instant now) {
        return database.write("commit the plan", conn -> {
            for (Map.Entry<Long, String> failed : plan.dependencyFailed().entrySet()) {
                Job job = seen.get(failed.getKey());
                if (transitions.finish(conn, job.id(), Expected.of(job), JobState.FAILED, null, failed.getValue(), now)) {
                    alerts.dependencyFailed(job.id(), "job " + job.id() + " can never run: " + failed.getValue(), now)
                            .run(conn);
                }
            }
            for (Map.Entry<Long, String> never : plan.unschedulable().entrySet()) {
                Job job = seen.get(never.getKey());
                if (transitions.finish(conn, job.id(), Expected.of(job), JobState.FAILED, null,
                        "unschedulable: " + never.getValue(), now)) {
                    alerts.unschedulable(job.id(), "job " + job.id() + " is unschedulable: " + never.getValue(), now)
                            .run(conn);
                }
            }
            for (long id : plan.timedOut()) {
                Job job = seen.get(id);
                String why = "ran longer than its timeout of " + job.spec().timeoutSeconds() + " s";
                if (transitions.finish(conn, id, Expected.of(job), JobState.TIMEOUT, null, why, now)) {
                    alerts.jobTimeout(id, job.attempt(), job.assignment().node(), "job " + id + " timed out: " + why, now)
                            .run(conn);
                }
            }
            Map<String, List<Launch>> launches = new LinkedHashMap<>();
            String queue = QueueIdentity.of(meta).run(conn);
            for (Placement placement : plan.placements()) {
                Job job = seen.get(placement.jobId());
                int attempt = job.attempt() + 1;
                Assignment assignment = new Assignment(placement.node(), placement.gpuIndices(), placement.gpuUuids(),
                        attempt, UUID.randomUUID().toString());
                String dir = JobQuery.directory(nodes.jobRoot(placement.node()) + "/" + queue, job.id(), attempt);
                if (transitions.place(conn, job.id(), assignment, dir, now)) {
                    launches.computeIfAbsent(placement.node(), node -> new ArrayList<>())
                            .add(new Launch(job, assignment, dir));
                }
            }
            reasons.write(conn, plan.pendingReasons());
            return launches;
        });
    }
}
