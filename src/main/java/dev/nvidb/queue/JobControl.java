package dev.nvidb.queue;

import dev.nvidb.engine.QueueEngine;
import dev.nvidb.error.UsageException;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.store.Expected;
import dev.nvidb.store.GroupStore;
import dev.nvidb.store.JobAnnotations;
import dev.nvidb.store.JobFilter;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.JobTransitions;
import dev.nvidb.store.StoredJob;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Changing jobs: cancel and requeue (each a compare-and-set, so neither waits for a tick in
 * progress, with the kill of a running job recorded in the same transaction and sent right
 * away), priority (set, or move a pending job N places), note, result, and purge.
 */
public final class JobControl {

    private final QueueEngine engine;
    private final StatusReading reading;
    private final JobTransitions transitions;
    private final JobAnnotations annotations;

    JobControl(QueueEngine engine, StatusReading reading) {
        this.engine = engine;
        this.reading = reading;
        this.transitions = new JobTransitions(engine.database());
        this.annotations = new JobAnnotations(engine.database());
    }

    /**
     * Cancels pending and running jobs. A cancel never contradicts an exit the node already
     * recorded: the nodes of the running jobs are asked first (one exec per node), and a job that
     * exited is settled by its exit file (completed or failed) instead of cancelled. A job still
     * running gets its kill recorded in the same transaction as the cancel and sent at once
     * (TERM to its process group, KILL after the grace period). A running job whose node does
     * not answer stays running with the cancel owed: its dependents keep waiting, and the first
     * tick that reaches the node settles it by its exit file or cancels and kills it (after
     * {@code lost_after_seconds} without an answer it is lost, as any job there).
     */
    public List<JobChange> cancel(List<Long> ids) {
        List<JobChange> changes = new ArrayList<>();
        Set<String> touched = new LinkedHashSet<>();
        JobStore store = new JobStore(engine.database());
        List<StoredJob> running = new ArrayList<>();
        for (long id : new LinkedHashSet<>(ids)) {
            store.findJob(id).filter(job -> job.job().state() == JobState.RUNNING).ifPresent(running::add);
        }
        if (!running.isEmpty() && engine.daemonPresent()) {
            return cancelThroughDaemon(ids, running);
        }
        Set<Long> told = running.isEmpty() ? Set.of() : engine.settleNow(running);
        for (long id : ids) {
            Job job = reading.getJob(id).job();
            boolean wasRunning = running.stream().anyMatch(stored -> stored.id() == id);
            if (job.state().finished()) {
                changes.add(new JobChange(id, false, job.state().key(), "job " + id + " already ended: "
                        + job.state().key() + (wasRunning && job.exitCode() != null ? " (exit " + job.exitCode() + ")"
                        : "")));
                continue;
            }
            if (job.state() == JobState.RUNNING && !told.contains(id)) {
                String node = job.assignment().node();
                boolean owed = transitions.requestCancel(id, Expected.of(job), "cancelled by request", now());
                changes.add(new JobChange(id, owed, job.state().key(), owed ? "job " + id + ": node " + node
                        + " did not answer; it is cancelled when " + node + " answers, unless it ended first"
                        : "job " + id + " changed meanwhile: now " + reading.getJob(id).job().state().key()));
                continue;
            }
            boolean done = transitions.cancel(id, Expected.of(job), "cancelled by request", now());
            if (done && job.state() == JobState.RUNNING) {
                touched.add(job.assignment().node());
            }
            Job after = reading.getJob(id).job();
            changes.add(new JobChange(id, done, after.state().key(), done ? "cancelled job " + id
                    : "job " + id + " changed meanwhile: now " + after.state().key()));
        }
        engine.reapNow(List.copyOf(touched));
        return changes;
    }

    /**
     * A cancel on the warm path: every running job gets its cancel recorded as owed, and the
     * daemon's next pass (over its open connections) settles each by its exit file or cancels
     * and kills it, exactly as a tick that reaches a node with an owed cancel does. What the
     * pass decided is then read back. A daemon that does not answer leaves the cancels owed, as
     * a node that does not answer would.
     */
    private List<JobChange> cancelThroughDaemon(List<Long> ids, List<StoredJob> running) {
        Set<Long> runningIds = new LinkedHashSet<>();
        for (StoredJob job : running) {
            if (transitions.requestCancel(job.id(), Expected.of(job.job()), "cancelled by request", now())) {
                runningIds.add(job.id());
            }
        }
        List<JobChange> changes = new ArrayList<>();
        Set<Long> pendingDone = new LinkedHashSet<>();
        for (long id : new LinkedHashSet<>(ids)) {
            Job job = reading.getJob(id).job();
            if (!runningIds.contains(id) && !job.state().finished() && job.state() != JobState.RUNNING) {
                if (transitions.cancel(id, Expected.of(job), "cancelled by request", now())) {
                    pendingDone.add(id);
                }
            }
        }
        engine.tickByDaemon();
        for (long id : ids) {
            Job after = reading.getJob(id).job();
            if (pendingDone.contains(id) || runningIds.contains(id) && after.state() == JobState.CANCELLED) {
                changes.add(new JobChange(id, true, after.state().key(), "cancelled job " + id));
            } else if (runningIds.contains(id) && after.state() == JobState.RUNNING) {
                String node = after.assignment().node();
                changes.add(new JobChange(id, true, after.state().key(), "job " + id + ": node " + node
                        + " did not answer; it is cancelled when " + node + " answers, unless it ended first"));
            } else if (after.state().finished()) {
                changes.add(new JobChange(id, false, after.state().key(), "job " + id + " already ended: "
                        + after.state().key() + (runningIds.contains(id) && after.exitCode() != null
                        ? " (exit " + after.exitCode() + ")" : "")));
            } else {
                changes.add(new JobChange(id, false, after.state().key(), "job " + id + " changed meanwhile: now "
                        + after.state().key()));
            }
        }
        return changes;
    }

    /**
     * Puts jobs back to pending to run again (a new attempt; the note stays, progress is
     * cleared), or releases a held job. A running job is killed first, as by cancel.
     */
    public List<JobChange> requeue(List<Long> ids) {
        List<JobChange> changes = new ArrayList<>();
        Set<String> touched = new LinkedHashSet<>();
        for (long id : ids) {
            Job job = reading.getJob(id).job();
            if (job.held()) {
                boolean released = annotations.release(id, now());
                changes.add(new JobChange(id, released, job.state().key(), released ? "released job " + id
                        : "job " + id + " changed meanwhile"));
                continue;
            }
            if (job.state() == JobState.PENDING) {
                changes.add(new JobChange(id, false, job.state().key(), "job " + id + " is already pending"));
                continue;
            }
            String key = job.spec().sweep().key();
            GroupStore groups = new GroupStore(engine.database());
            String holder = key == null ? null : engine.database().write("requeue job " + id, conn -> {
                var live = groups.findLiveKey(conn, key).filter(found -> found.id() != id);
                if (live.isPresent()) {
                    return "job " + live.get().id() + " (" + live.get().state().key() + ")";
                }
                transitions.requeue(conn, id, Expected.of(job), "requeued by request", now());
                return null;
            });
            if (holder != null) {
                changes.add(new JobChange(id, false, job.state().key(), "job " + id + " not requeued: its key "
                        + key + " is held by " + holder));
                continue;
            }
            boolean done = key != null ? reading.getJob(id).job().state() == JobState.PENDING
                    : transitions.requeue(id, Expected.of(job), "requeued by request", now());
            if (done && job.state() == JobState.RUNNING) {
                touched.add(job.assignment().node());
            }
            changes.add(new JobChange(id, done, reading.getJob(id).job().state().key(), done ? "requeued job " + id
                    : "job " + id + " changed meanwhile"));
        }
        engine.reapNow(List.copyOf(touched));
        return changes;
    }

    /** Sets the priority of a job (pending or running). */
    public void setPriority(long id, int priority) {
        reading.getJob(id);
        annotations.setPriority(id, priority, now());
    }

    /**
     * Moves a pending job exactly {@code places} jobs earlier (positive) or later (negative)
     * in dispatch order (priority descending, then id), or to the front or back when fewer jobs
     * are there, and returns its new priority. Jobs that share a priority are passed one at a
     * time: the moved job, and where needed the jobs beyond its new place, get new priorities
     * by the rule of {@link PriorityMove}, all in one transaction with the pending order it was
     * computed from.
     */
    public int move(long id, int places) {
        JobView job = reading.getJob(id);
        if (job.job().state() != JobState.PENDING) {
            throw new UsageException("job " + id + " is " + job.job().state().key() + "; only pending jobs can be moved",
                    "set its priority instead: nvidb job priority " + id + " N");
        }
        JobStore jobs = new JobStore(engine.database());
        Instant now = now();
        return engine.database().write("move job " + id, conn -> {
            List<PriorityMove.Slot> pending = jobs.listJobs(conn, JobFilter.inStates(JobState.PENDING)).stream()
                    .map(stored -> new PriorityMove.Slot(stored.id(), stored.job().priority())).toList();
            if (pending.stream().noneMatch(slot -> slot.id() == id)) {
                throw new UsageException("job " + id + " is no longer pending; only pending jobs can be moved");
            }
            Map<Long, Integer> changes;
            try {
                changes = PriorityMove.plan(pending, id, places);
            } catch (ArithmeticException e) {
                throw new UsageException("cannot move job " + id + ": priorities would leave the range of a 32-bit number");
            }
            for (Map.Entry<Long, Integer> change : changes.entrySet()) {
                annotations.setPriority(conn, change.getKey(), change.getValue(), now);
            }
            return changes.getOrDefault(id, job.job().priority());
        });
    }

    /** The longest result document a client may set: what the node collects from result.json (RESULT_LIMIT). */
    static final int MAX_RESULT_BYTES = 1024 * 1024;

    /** Replaces the note (null clears it); held to what {@code submit --note} takes. */
    public void setNote(long id, String note) {
        reading.getJob(id);
        if (note != null) {
            noteText(id, note, note.length());
        }
        annotations.setNote(id, note);
    }

    /** Appends a line to the note; the whole note is held to what {@code submit --note} takes. */
    public void appendNote(long id, String line) {
        String note = reading.getJob(id).job().note();
        noteText(id, line, note == null || note.isEmpty() ? line.length() : note.length() + 1 + line.length());
        annotations.appendNote(id, line);
    }

    private static void noteText(long id, String text, int noteLength) {
        dev.nvidb.agent.RunScript.checkText("the note", text).ifPresent(problem -> {
            throw new UsageException("cannot save the note of job " + id + ": " + problem, "remove the byte and try again");
        });
        if (noteLength > Submission.MAX_NOTE_CHARS) {
            throw new UsageException("cannot save the note of job " + id + ": it would be " + noteLength
                    + " characters; a note holds at most " + Submission.MAX_NOTE_CHARS,
                    "keep long text in a file and put its path in the note");
        }
    }

    /** Stores a result document for the job (JSON text, already validated), at most {@link #MAX_RESULT_BYTES}. */
    public void setResult(long id, String json) {
        reading.getJob(id);
        int bytes = json.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > MAX_RESULT_BYTES) {
            throw new UsageException("cannot set the result of job " + id + ": it is " + bytes + " bytes; a result"
                    + " holds at most " + MAX_RESULT_BYTES + " (as a job's result.json)",
                    "keep large data in a file and put its path in the result");
        }
        annotations.setResult(id, json);
    }

    /** Forgets finished jobs in {@code states}; returns the ids removed. */
    public List<Long> purge(Set<JobState> states) {
        return new JobStore(engine.database()).purge(states, now());
    }

    private Instant now() {
        return engine.clock().instant();
    }
}
