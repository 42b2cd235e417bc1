package dev.nvidb.engine;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.store.Expected;
import dev.nvidb.store.JobAnnotations;
import dev.nvidb.store.JobTransitions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Cancel and requeue: each a compare-and-set (so neither waits for a tick in progress), with
 * the kill of a running job recorded in the same transaction and sent right away.
 */
final class JobChanges {

    private final QueueService queue;
    private final JobTransitions transitions;
    private final JobAnnotations annotations;
    private final Reaper reaper;
    private final Clock clock;

    JobChanges(QueueService queue, JobTransitions transitions, JobAnnotations annotations, Reaper reaper, Clock clock) {
        this.queue = queue;
        this.transitions = transitions;
        this.annotations = annotations;
        this.reaper = reaper;
        this.clock = clock;
    }

    List<QueueService.Change> cancel(List<Long> ids) {
        List<QueueService.Change> changes = new ArrayList<>();
        Set<String> touched = new LinkedHashSet<>();
        for (long id : ids) {
            Job job = queue.getJob(id).job();
            if (job.state().finished()) {
                changes.add(new QueueService.Change(id, false, job.state().key(),
                        "job " + id + " already ended: " + job.state().key()));
                continue;
            }
            boolean done = transitions.cancel(id, Expected.of(job), "cancelled by request", clock.instant());
            if (done && job.state() == JobState.RUNNING) {
                touched.add(job.assignment().node());
            }
            Job after = queue.getJob(id).job();
            changes.add(new QueueService.Change(id, done, after.state().key(), done ? "cancelled job " + id
                    : "job " + id + " changed meanwhile: now " + after.state().key()));
        }
        reaper.reapNow(List.copyOf(touched));
        return changes;
    }

    /**
     * Puts jobs back to pending to run again (a new attempt; the note stays, progress is
     * cleared). A running job is killed first, as by cancel.
     */
    List<QueueService.Change> requeue(List<Long> ids) {
        List<QueueService.Change> changes = new ArrayList<>();
        Set<String> touched = new LinkedHashSet<>();
        for (long id : ids) {
            Job job = queue.getJob(id).job();
            if (job.held()) {
                boolean released = annotations.release(id, clock.instant());
                changes.add(new QueueService.Change(id, released, job.state().key(), released ? "released job " + id
                        : "job " + id + " changed meanwhile"));
                continue;
            }
            if (job.state() == JobState.PENDING) {
                changes.add(new QueueService.Change(id, false, job.state().key(), "job " + id + " is already pending"));
                continue;
            }
            boolean done = transitions.requeue(id, Expected.of(job), "requeued by request",
                    clock.instant());
            if (done && job.state() == JobState.RUNNING) {
                touched.add(job.assignment().node());
            }
            changes.add(new QueueService.Change(id, done, queue.getJob(id).job().state().key(), done ? "requeued job " + id
                    : "job " + id + " changed meanwhile"));
        }
        reaper.reapNow(List.copyOf(touched));
        return changes;
    }
}
