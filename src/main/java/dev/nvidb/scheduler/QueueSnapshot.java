package dev.nvidb.scheduler;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The queue's side of one tick, read from the database: what waits, what runs, and the
 * states of the other jobs that waiting jobs depend on.
 *
 * @param pending          every pending job, held ones included (any order: the scheduler sorts)
 * @param running          every running job (their reservations are charged; their deadlines checked)
 * @param dependencyStates states of jobs that pending jobs depend on and that are in neither
 *                         list (usually finished ones); an id found nowhere has been purged
 * @param groupCaps        the most jobs of a group (an array with {@code %CAP}) that may run at once
 */
public record QueueSnapshot(List<Job> pending, List<Job> running, Map<Long, JobState> dependencyStates,
                            Map<String, Integer> groupCaps) {

    /** A snapshot without group caps. */
    public QueueSnapshot(List<Job> pending, List<Job> running, Map<Long, JobState> dependencyStates) {
        this(pending, running, dependencyStates, Map.of());
    }

    public QueueSnapshot {
        groupCaps = Map.copyOf(groupCaps);
        pending = List.copyOf(pending);
        running = List.copyOf(running);
        dependencyStates = Map.copyOf(dependencyStates);
        for (Job job : pending) {
            requireState(job, JobState.PENDING);
        }
        for (Job job : running) {
            requireState(job, JobState.RUNNING);
        }
    }

    /** A snapshot with no dependency states beyond the two lists. */
    public static QueueSnapshot of(List<Job> pending, List<Job> running) {
        return new QueueSnapshot(pending, running, Map.of());
    }

    /** Every job's state by id: the lists first, then {@link #dependencyStates()}. */
    Map<Long, JobState> statesById() {
        Map<Long, JobState> states = new HashMap<>(dependencyStates);
        running.forEach(job -> states.put(job.id(), JobState.RUNNING));
        pending.forEach(job -> states.put(job.id(), JobState.PENDING));
        return states;
    }

    private static void requireState(Job job, JobState state) {
        if (job.state() != state) {
            throw new IllegalArgumentException("job " + job.id() + " is " + job.state().key()
                    + ", listed as " + state.key());
        }
    }
}
