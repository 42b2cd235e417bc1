package dev.nvidb.scheduler;

import dev.nvidb.model.Job;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Collects one planning pass's decisions, then freezes them into a {@link Plan}. */
final class PlanBuilder {

    private final List<Placement> placements = new ArrayList<>();
    private final Map<Long, String> pending;
    private final Map<Long, String> unschedulable = new HashMap<>();
    private final Map<Long, String> dependencyFailed = new HashMap<>();
    private final List<Long> timedOut = new ArrayList<>();

    /** A builder for a pass over {@code pendingJobs} pending jobs (its reason map never grows by rehashing). */
    PlanBuilder(int pendingJobs) {
        pending = new HashMap<>(Math.max(16, (int) (pendingJobs / 0.75f) + 1));
    }

    void place(Job job, String node, List<GpuSlot> slots) {
        pending.remove(job.id()); // a job the workstations left waiting may still go to Slurm
        placements.add(new Placement(job.id(), node, slots.stream().map(slot -> slot.gpu.index()).toList(),
                slots.stream().map(slot -> slot.gpu.uuid()).toList()));
    }

    int placedCount() {
        return placements.size();
    }

    void pending(Job job, String reason) {
        pending.put(job.id(), reason);
    }

    void unschedulable(Job job, String reason) {
        unschedulable.put(job.id(), reason);
    }

    void dependencyFailed(Job job, String reason) {
        dependencyFailed.put(job.id(), reason);
    }

    void timedOut(Job job) {
        timedOut.add(job.id());
    }

    Plan build() {
        return new Plan(placements, pending, unschedulable, dependencyFailed, timedOut);
    }
}
