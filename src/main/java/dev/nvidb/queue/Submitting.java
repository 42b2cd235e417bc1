package dev.nvidb.queue;

import dev.nvidb.engine.QueueEngine;
import dev.nvidb.model.JobSpec;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.SubmitEnvironments;
import java.util.Map;

/**
 * Submitting a job: the request is checked ({@link Submission}) and recorded as a pending job
 * (with the submitter's environment when it may run on the local node) in one transaction (dependencies on missing jobs are refused there). Whether to tick right
 * after is the front end's choice ({@link Ticking#now()}): a new job is news the last tick did
 * not see.
 */
public final class Submitting {

    private final QueueEngine engine;

    Submitting(QueueEngine engine) {
        this.engine = engine;
    }

    /**
     * Records a new pending job and returns its id. A job that may run on the local node gets the
     * submitter's environment recorded with it, in the same transaction.
     */
    public long submit(SubmitRequest request) {
        JobSpec spec = Submission.spec(request, engine.nodes());
        Map<String, String> environment = mayRunHere(spec) ? request.submitterEnvironment() : null;
        JobStore jobs = new JobStore(engine.database());
        SubmitEnvironments environments = new SubmitEnvironments(engine.database());
        return engine.database().write("submit job " + spec.name(), conn -> {
            long id = jobs.insert(conn, spec, request.priority(), request.note(), engine.clock().instant());
            if (environment != null) {
                environments.record(conn, id, environment);
            }
            return id;
        });
    }

    /** Whether the queue has a local node and the job is not bound to another node. */
    private boolean mayRunHere(JobSpec spec) {
        return engine.nodes().localName().filter(local -> spec.node() == null || spec.node().equals(local)).isPresent();
    }
}
