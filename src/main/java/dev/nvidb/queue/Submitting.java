package dev.nvidb.queue;

import dev.nvidb.engine.QueueEngine;
import dev.nvidb.model.JobSpec;
import dev.nvidb.store.GroupStore;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.OperationStore;
import dev.nvidb.store.SqlWork;
import dev.nvidb.store.SubmitEnvironments;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Submitting a job: the request is checked ({@link Submission}) and recorded as a pending job
 * (with the submitter's environment when it may run on the local node) in one transaction (dependencies on missing jobs are refused there).
 * Submit-then-place ({@link #place}): a new job is news the last tick did not see, so a front end
 * ticks right after, and a failing tick leaves the job queued rather than failing the submit.
 */
public final class Submitting {

    private final QueueEngine engine;
    private final java.util.function.Supplier<Ticking> ticking;

    Submitting(QueueEngine engine, java.util.function.Supplier<Ticking> ticking) {
        this.engine = engine;
        this.ticking = ticking;
    }

    /**
     * How placing a stored job went.
     *
     * @param failure     why the tick failed (the job stays queued for the next one), or null
     * @param interrupted the thread was interrupted during or right after the tick
     */
    public record Placement(RuntimeException failure, boolean interrupted) {
    }

    /**
     * Submit-then-place: ticks now so the job just stored (job {@code id}) starts now rather than
     * at the next pass. A failure of that tick is returned, never thrown: the job is stored, and a
     * caller that retried a failed submit would queue it twice.
     */
    public Placement place(long id) {
        try {
            ticking.get().now();
            return new Placement(null, Thread.currentThread().isInterrupted());
        } catch (RuntimeException e) {
            boolean interrupted = Thread.currentThread().isInterrupted() || e instanceof dev.nvidb.error.InterruptedByUser;
            return new Placement(e, interrupted);
        }
    }

    /** Job {@code id} as it is now, or empty when it cannot be read (the answer then uses what the insert read). */
    public Optional<JobView> current(long id) {
        try {
            return Optional.of(new StatusReading(engine).getJob(id));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Records a new pending job and returns its id. A job that may run on the local node gets the
     * submitter's environment recorded with it, in the same transaction.
     */
    public long submit(SubmitRequest request) {
        return submitAll(request).cells().get(0).id();
    }

    /**
     * Records the jobs of a submit (one, or an array's cells) in one transaction, and returns
     * them. Inside that transaction: a cell whose key a pending, running or completed job holds
     * is that job (a failed or cancelled one does not count: the cell is submitted again); a
     * submit whose {@code --op-id} already stored jobs returns those; an array's cap is set on
     * its group. So concurrent submits of one key or one operation store one job.
     */
    public Submitted submitAll(SubmitRequest request) {
        Submission.Cells cells = Submission.cells(request, engine.nodes());
        JobStore jobs = new JobStore(engine.database());
        GroupStore groups = new GroupStore(engine.database());
        OperationStore operations = new OperationStore(engine.database());
        SubmitEnvironments environments = new SubmitEnvironments(engine.database());
        String opId = request.sweep().opId();
        String what = cells.specs().size() == 1 ? "submit job " + cells.specs().get(0).name()
                : "submit " + cells.specs().size() + " jobs of group " + cells.group();
        return engine.database().write(what, conn -> {
            Instant now = engine.clock().instant();
            if (opId != null) {
                List<Long> earlier = operations.find(conn, opId).map(OperationStore.Operation::jobIds).orElse(List.of());
                if (!earlier.isEmpty()) {
                    return earlier(jobs, earlier, cells.group()).run(conn);
                }
            }
            List<Submitted.Cell> stored = new ArrayList<>(cells.specs().size());
            for (JobSpec spec : cells.specs()) {
                String key = spec.sweep().key();
                Optional<GroupStore.KeyHolder> holder = key == null ? Optional.empty() : groups.findLiveKey(conn, key);
                if (holder.isPresent()) {
                    stored.add(new Submitted.Cell(holder.get().id(), spec.sweep().arrayIndex(), true,
                            holder.get().state().key(), key));
                    continue;
                }
                long id = jobs.insert(conn, spec, request.priority(), request.note(), now);
                if (mayRunHere(spec) && request.submitterEnvironment() != null) {
                    environments.record(conn, id, request.submitterEnvironment());
                }
                stored.add(new Submitted.Cell(id, spec.sweep().arrayIndex(), false, null, key));
            }
            if (cells.cap() != null) {
                groups.setCap(conn, cells.group(), cells.cap());
            }
            if (opId != null) {
                operations.recordJobs(conn, opId, stored.stream().map(Submitted.Cell::id).toList());
            }
            return new Submitted(stored, cells.group());
        });
    }

    /** The jobs an earlier run of the same operation stored (those since purged are left out). */
    private static SqlWork<Submitted> earlier(JobStore jobs, List<Long> ids, String group) {
        return conn -> {
        List<Submitted.Cell> cells = new ArrayList<>();
        for (long id : ids) {
            jobs.findJob(conn, id).ifPresent(job -> cells.add(new Submitted.Cell(id, job.job().spec().sweep().arrayIndex(),
                    true, job.job().state().key(), job.job().spec().sweep().key())));
        }
        if (cells.isEmpty()) {
            throw new dev.nvidb.error.UsageException("the jobs this operation submitted (" + ids + ") were purged",
                    "submit again with another --op-id");
        }
        return new Submitted(cells, group);
        };
    }

    /** Whether the queue has a local node and the job is not bound to another node. */
    private boolean mayRunHere(JobSpec spec) {
        return engine.nodes().localName().filter(local -> spec.node() == null || spec.node().equals(local)).isPresent();
    }
}
