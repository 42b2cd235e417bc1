package dev.nvidb.queue;

import dev.nvidb.engine.QueueEngine;
import dev.nvidb.model.JobSpec;
import dev.nvidb.store.JobStore;

/**
 * Submitting a job: the request is checked ({@link Submission}) and recorded as a pending job
 * in one transaction (dependencies on missing jobs are refused there). Whether to tick right
 * after is the front end's choice ({@link Ticking#now()}): a new job is news the last tick did
 * not see.
 */
public final class Submitting {

    private final QueueEngine engine;

    Submitting(QueueEngine engine) {
        this.engine = engine;
    }

    /** Records a new pending job and returns its id. */
    public long submit(SubmitRequest request) {
        JobSpec spec = Submission.spec(request, engine.nodes());
        return new JobStore(engine.database()).insert(spec, request.priority(), request.note(), engine.clock().instant());
    }
}
