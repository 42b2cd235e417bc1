package dev.nvidb.scheduler;

import static dev.nvidb.scheduler.Fixtures.GIB;
import static dev.nvidb.scheduler.Fixtures.job;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A random but reproducible tick: a cluster of answering, silent, drained and partly blind
 * nodes, running jobs on them, and a queue of pending jobs with constraints, holds and
 * dependencies. Every figure is kept so tests can check the plan against first principles.
 */
final class RandomTick {

    private static final long[] TOTALS = {8 * GIB, 12 * GIB, 24 * GIB, 48 * GIB, 80 * GIB};
    private static final long[] VRAMS = {0, 2 * GIB, 4 * GIB, 8 * GIB, 16 * GIB, 30 * GIB, 60 * GIB, 100 * GIB};
    private static final JobState[] ENDED = {JobState.COMPLETED, JobState.COMPLETED, JobState.FAILED, JobState.CANCELLED,
            JobState.LOST};

    final Random random;
    final SchedulingPolicy policy;
    final List<NodeCapacity> nodes = new ArrayList<>();
    final List<Job> pending = new ArrayList<>();
    final List<Job> running = new ArrayList<>();
    final Map<Long, JobState> others = new HashMap<>();
    /** Each queue job's actual use per (node, GPU index), to build the GPUs' used figures. */
    private final Map<String, Map<Long, Long>> useByGpu = new HashMap<>();
    private long nextId = 1;

    RandomTick(long seed, int maxNodes, int maxGpus, int maxPending) {
        this.random = new Random(seed);
        this.policy = new SchedulingPolicy(pick(0L, 512L, 1024L), random.nextBoolean() ? PlacementMode.SPREAD : PlacementMode.PACK,
                pick(0, 1, 2, 3), pick(0, 1, 2, 4));
        int nodeCount = 1 + random.nextInt(maxNodes);
        List<long[]> layouts = new ArrayList<>();
        for (int n = 0; n < nodeCount; n++) {
            long[] totals = new long[random.nextInt(maxGpus + 1)];
            for (int g = 0; g < totals.length; g++) {
                totals[g] = TOTALS[random.nextInt(TOTALS.length)];
            }
            layouts.add(totals);
            addRunningJobs("n" + n, totals);
        }
        for (int id = 0; id < 5; id++) {
            others.put(nextId++, ENDED[random.nextInt(ENDED.length)]);
        }
        nextId += 2; // two ids nobody knows any more: purged
        for (int n = 0; n < nodeCount; n++) {
            nodes.add(node("n" + n, layouts.get(n)));
        }
        int pendingCount = random.nextInt(maxPending + 1);
        for (int i = 0; i < pendingCount; i++) {
            pending.add(pendingJob(nodeCount));
        }
    }

    private void addRunningJobs(String name, long[] totals) {
        for (int g = 0; g < totals.length; g++) {
            int jobs = random.nextInt(3);
            for (int j = 0; j < jobs; j++) {
                long id = nextId++;
                long reservation = pick(0L, 2 * GIB, 4 * GIB);
                long use = random.nextInt((int) (totals[g] / 3));
                Fixtures.JobBuilder builder = job(id).vram(reservation);
                if (jobs == 1 && random.nextInt(6) == 0) {
                    builder.exclusive(); // alone on its GPU, as it was placed
                }
                running.add(builder.running(name, g));
                useByGpu.computeIfAbsent(name + "/" + g, key -> new HashMap<>()).put(id, use);
            }
        }
        for (int j = random.nextInt(3); j > 0; j--) {
            running.add(job(nextId++).gpus(0).running(name));
        }
    }

    private NodeCapacity node(String name, long[] totals) {
        int status = random.nextInt(20);
        List<GpuCapacity> gpus = new ArrayList<>();
        for (int g = 0; g < totals.length; g++) {
            gpus.add(status < 16 ? gpu(name, g, totals[g]) : GpuCapacity.unknown(g, "GPU-" + g, totals[g]));
        }
        NodeCapacity node = status < 16 ? NodeCapacity.answered(name, gpus)
                : status < 19 ? NodeCapacity.notAnswering(name, gpus) : NodeCapacity.neverAnswered(name);
        if (random.nextInt(10) == 0) {
            node = node.asDrained();
        }
        if (random.nextInt(4) == 0) {
            List<Integer> allowed = new ArrayList<>();
            for (int g = 0; g < totals.length + 1; g++) {
                if (random.nextBoolean()) {
                    allowed.add(g);
                }
            }
            node = node.withGpuAllowlist(allowed);
        }
        return node;
    }

    private GpuCapacity gpu(String name, int index, long total) {
        Map<Long, Long> use = useByGpu.getOrDefault(name + "/" + index, Map.of());
        long queueUse = use.values().stream().mapToLong(Long::longValue).sum();
        long foreign = random.nextInt(3) == 0 ? random.nextInt((int) total / 2) : 0;
        long unattributed = random.nextInt(400);
        long used = Math.min(total, foreign + queueUse + unattributed);
        return switch (random.nextInt(8)) {
            case 0 -> GpuCapacity.blind(index, "GPU-" + index, total, used);
            case 1 -> GpuCapacity.unknown(index, "GPU-" + index, random.nextBoolean() ? total : null);
            default -> GpuCapacity.measured(index, "GPU-" + index, total, used, foreign, use);
        };
    }

    private Job pendingJob(int nodeCount) {
        long id = nextId++;
        Fixtures.JobBuilder builder = job(id).gpus(pick(0, 1, 1, 1, 2, 3)).vram(VRAMS[random.nextInt(VRAMS.length)])
                .priority(random.nextInt(3));
        if (random.nextInt(5) == 0) {
            builder.node(random.nextInt(8) == 0 ? "nowhere" : "n" + random.nextInt(nodeCount));
        }
        if (random.nextInt(10) == 0) {
            builder.held("by hand");
        }
        if (random.nextInt(6) == 0) {
            builder.exclusive();
        }
        if (random.nextInt(4) == 0) {
            long other = 1 + random.nextInt((int) id - 1);
            if (random.nextBoolean()) {
                builder.after(other);
            } else {
                builder.afterAny(other);
            }
        }
        return builder.pending();
    }

    Plan plan() {
        return Scheduler.plan(new QueueSnapshot(pending, running, others), nodes, policy, Fixtures.NOW);
    }

    @SafeVarargs
    private <T> T pick(T... values) {
        return values[random.nextInt(values.length)];
    }
}
