package dev.nvidb.queue;

import dev.nvidb.engine.QueueEngine;
import dev.nvidb.error.UsageException;
import dev.nvidb.model.JobState;
import dev.nvidb.store.GroupStore;
import java.util.List;

/**
 * Groups of jobs (sweeps and arrays): their progress, cancelling or requeueing a group's jobs at
 * once, and releasing a group that fail-fast held.
 */
public final class Groups {

    /** The states {@code job requeue --group G --failed} runs again. */
    public static final List<JobState> FAILED = List.of(JobState.FAILED, JobState.TIMEOUT, JobState.LOST);

    private final QueueEngine engine;
    private final JobControl control;
    private final GroupStore store;

    Groups(QueueEngine engine, JobControl control) {
        this.engine = engine;
        this.control = control;
        this.store = new GroupStore(engine.database());
    }

    /** Every group, by name. */
    public List<GroupView> list() {
        return store.listGroups().stream().map(GroupView::of).toList();
    }

    /** Cancels the group's pending and running jobs (a usage error when it has no jobs at all). */
    public List<JobChange> cancel(String group) {
        requireGroup(group);
        return control.cancel(store.idsInGroup(group, List.of(JobState.PENDING, JobState.RUNNING)));
    }

    /** Runs the group's failed, timed-out and lost jobs again. */
    public List<JobChange> requeueFailed(String group) {
        requireGroup(group);
        return control.requeue(store.idsInGroup(group, FAILED));
    }

    /** Lets a held group's jobs be placed again; false when it was not held. */
    public boolean release(String group) {
        requireGroup(group);
        return engine.database().write("release group " + group, conn -> store.release(conn, group));
    }

    private void requireGroup(String group) {
        if (store.listGroups().stream().noneMatch(row -> row.name().equals(group))) {
            throw new UsageException("no group " + group, "nvidb queue groups lists the groups");
        }
    }
}
