package dev.nvidb.scheduler;

import static dev.nvidb.scheduler.Fixtures.GIB;
import static dev.nvidb.scheduler.Fixtures.NOW;
import static dev.nvidb.scheduler.Fixtures.gpu;
import static dev.nvidb.scheduler.Fixtures.job;
import static dev.nvidb.scheduler.Fixtures.node;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.model.Job;
import dev.nvidb.model.Sweep;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An array's cap: at most CAP jobs of its group run at once, running ones and this plan's placements together. */
class SchedulerGroupCapTest {

    private static final List<NodeCapacity> NODES = List.of(node("gpu-a", gpu(0, 80 * GIB), gpu(1, 80 * GIB),
            gpu(2, 80 * GIB), gpu(3, 80 * GIB)));

    private static Job inGroup(Job job, String group, int index) {
        return job.withSpec(job.spec().withSweep(new Sweep(group, index, null)));
    }

    @Test
    void placesNoMoreOfAGroupThanItsCapCountingRunningJobs() {
        List<Job> pending = new ArrayList<>();
        for (int i = 2; i <= 5; i++) {
            pending.add(inGroup(job(i).vram(GIB).pending(), "sw", i));
        }
        Job running = inGroup(job(1).vram(GIB).running("gpu-a", 0), "sw", 1);
        Job other = job(6).vram(GIB).pending();
        pending.add(other);
        Plan plan = Scheduler.plan(new QueueSnapshot(pending, List.of(running), Map.of(), Map.of("sw", 2)), NODES,
                SchedulingPolicy.defaults(), NOW);
        assertEquals(List.of(2L, 6L), plan.placements().stream().map(Placement::jobId).toList());
        assertEquals("group sw has 2 of 2 jobs running (its array's cap)", plan.pendingReasons().get(3L));
    }

    @Test
    void aGroupWithoutACapIsNotLimited() {
        List<Job> pending = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            pending.add(inGroup(job(i).vram(GIB).pending(), "free", i));
        }
        Plan plan = Scheduler.plan(new QueueSnapshot(pending, List.of(), Map.of(), Map.of("sw", 1)), NODES,
                SchedulingPolicy.defaults(), NOW);
        assertEquals(4, plan.placements().size());
    }
}
