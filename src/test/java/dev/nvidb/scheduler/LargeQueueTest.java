package dev.nvidb.scheduler;

import static dev.nvidb.scheduler.Fixtures.GIB;
import static dev.nvidb.scheduler.Fixtures.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.Job;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * 10,000 pending jobs over 64 nodes × 8 GPUs: the plan is complete and sane at that size. The
 * timing is not asserted (machines differ); {@link #main} prints it: {@code java -cp … LargeQueueTest}.
 */
class LargeQueueTest {

    static final int NODES = 64;
    static final int GPUS = 8;
    static final int JOBS = 10_000;

    @Test
    void plansTenThousandJobsOverFiveHundredGpus() {
        List<NodeCapacity> nodes = cluster();
        QueueSnapshot queue = queue(new Random(7));

        Plan plan = Scheduler.plan(queue, nodes, SchedulingPolicy.defaults(), Fixtures.NOW);

        assertEquals(JOBS, plan.placements().size() + plan.pendingReasons().size() + plan.unschedulable().size()
                + plan.dependencyFailed().size());
        assertTrue(plan.placements().size() > 500, "the cluster has room for hundreds of jobs");
        assertTrue(plan.pendingReasons().size() > 5000, "most of the queue waits");
    }

    static List<NodeCapacity> cluster() {
        List<NodeCapacity> nodes = new ArrayList<>();
        for (int n = 0; n < NODES; n++) {
            List<GpuCapacity> gpus = new ArrayList<>();
            for (int g = 0; g < GPUS; g++) {
                long total = (n % 4 == 0 ? 80 : 24) * GIB;
                long foreign = (n + g) % 5 == 0 ? 6 * GIB : 0;
                gpus.add(GpuCapacity.measured(g, "GPU-" + n + "-" + g, total, foreign, foreign, Map.of()));
            }
            NodeCapacity node = NodeCapacity.answered("node-" + n, gpus);
            nodes.add(n == 5 ? node.asDrained() : n == 6 ? NodeCapacity.notAnswering(node.name(), gpus) : node);
        }
        return nodes;
    }

    static QueueSnapshot queue(Random random) {
        return queue(random, JOBS);
    }

    static QueueSnapshot queue(Random random, int jobs) {
        long[] vrams = {0, 2 * GIB, 4 * GIB, 8 * GIB, 16 * GIB, 20 * GIB, 40 * GIB, 100 * GIB};
        int[] gpus = {0, 1, 1, 1, 1, 2, 4};
        List<Job> pending = new ArrayList<>();
        for (int id = 1; id <= jobs; id++) {
            Fixtures.JobBuilder builder = job(id).gpus(gpus[random.nextInt(gpus.length)])
                    .vram(vrams[random.nextInt(vrams.length)]).priority(random.nextInt(3));
            if (random.nextInt(10) == 0) {
                builder.node("node-" + random.nextInt(NODES));
            }
            if (random.nextInt(10) == 0 && id > 1) {
                builder.after(1 + random.nextInt(id - 1));
            }
            pending.add(builder.pending());
        }
        return QueueSnapshot.of(pending, List.of());
    }

    /** Prints planning times (wall and this thread's CPU, in ms) over repeated runs after a warm-up; arg: pending jobs (10,000). */
    public static void main(String[] args) {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : JOBS;
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        List<NodeCapacity> nodes = cluster();
        QueueSnapshot queue = queue(new Random(7), jobs);
        long cold = System.nanoTime();
        Scheduler.plan(queue, nodes, SchedulingPolicy.defaults(), Fixtures.NOW);
        System.out.printf("first run in this JVM (cold, interpreted): %.1f ms%n", (System.nanoTime() - cold) / 1e6);
        for (SchedulingPolicy policy : List.of(SchedulingPolicy.defaults(),
                SchedulingPolicy.defaults().withPlacement(PlacementMode.PACK).withMaxJobsPerGpu(2))) {
            for (int i = 0; i < 20; i++) {
                Scheduler.plan(queue, nodes, policy, Fixtures.NOW);
            }
            double[] wall = new double[30];
            double[] cpu = new double[30];
            Plan plan = null;
            for (int i = 0; i < wall.length; i++) {
                long start = System.nanoTime();
                long startCpu = threads.getCurrentThreadCpuTime();
                plan = Scheduler.plan(queue, nodes, policy, Fixtures.NOW);
                cpu[i] = (threads.getCurrentThreadCpuTime() - startCpu) / 1e6;
                wall[i] = (System.nanoTime() - start) / 1e6;
            }
            Arrays.sort(wall);
            Arrays.sort(cpu);
            System.out.printf("%s %s: wall median %.1f ms (min %.1f), thread CPU median %.1f ms (min %.1f); "
                            + "%d placed, %d waiting, %d unschedulable, %d dependency failed%n",
                    policy.placement(), policy.maxJobsPerGpu() == 0 ? "" : "max_jobs_per_gpu " + policy.maxJobsPerGpu(),
                    wall[wall.length / 2], wall[0], cpu[cpu.length / 2], cpu[0], plan.placements().size(),
                    plan.pendingReasons().size(), plan.unschedulable().size(), plan.dependencyFailed().size());
        }
        QueueSnapshot other = queue(new Random(8), jobs);
        long start = System.nanoTime();
        Scheduler.plan(other, nodes, SchedulingPolicy.defaults(), Fixtures.NOW);
        System.out.printf("one run on another queue: %.1f ms%n", (System.nanoTime() - start) / 1e6);
    }
}
