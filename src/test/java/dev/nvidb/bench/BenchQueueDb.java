package dev.nvidb.bench;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.Dependency;
import dev.nvidb.model.JobSpec;
import dev.nvidb.model.JobState;
import dev.nvidb.store.Database;
import dev.nvidb.store.Expected;
import dev.nvidb.store.JobAnnotations;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.JobTransitions;
import dev.nvidb.store.ProcessIdentity;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Fills a queue database with a realistic history for {@code job ls} benchmarks: {@code COUNT}
 * jobs (default 1,000) spread over {@code node1..nodeN}, in mixed states (about 60% completed,
 * 10% failed, 5% cancelled, 2% timeout, 3% running, 20% pending), with tags, notes, progress
 * lines, results, environment variables and some dependencies, each written through the same
 * store transitions a tick uses (so events are there too). Deterministic (seeded).
 *
 * <p>Usage: {@code BenchQueueDb DB_FILE [COUNT] [NODES]}. Running jobs point at processes that do
 * not exist, so use the file only with {@code --no-tick} (or expect a tick to settle them).
 */
public final class BenchQueueDb {

    private BenchQueueDb() {
    }

    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int nodes = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Random random = new Random(42);
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        String[] scripts = {"python train.py --lr 3e-4 --epochs 40", "python eval.py --ckpt runs/%d/best.pt",
            "bash sweep.sh %d", "torchrun --nproc_per_node 2 train.py --config configs/big.yaml", "true"};
        long[] vrams = {0, 2048, 8192, 20_480, 40_960};
        try (Database database = Database.open(file)) {
            JobStore jobs = new JobStore(database);
            JobTransitions transitions = new JobTransitions(database);
            JobAnnotations annotations = new JobAnnotations(database);
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                Instant now = t0.plusSeconds(60L * i);
                List<Dependency> after = new ArrayList<>();
                if (!ids.isEmpty() && random.nextInt(8) == 0) {
                    after.add(new Dependency(ids.get(random.nextInt(ids.size())), random.nextBoolean()));
                }
                int gpus = random.nextInt(10) == 0 ? 2 : random.nextInt(12) == 0 ? 0 : 1;
                String command = String.format(scripts[random.nextInt(scripts.length)], i);
                JobSpec spec = new JobSpec("run-" + i, command, gpus, gpus == 0 ? 0 : vrams[random.nextInt(vrams.length)],
                        random.nextInt(10) == 0 ? "node" + (1 + random.nextInt(nodes)) : null,
                        random.nextBoolean() ? "~/project" : null, Map.of("SEED", Integer.toString(i), "WANDB_MODE", "offline"),
                        after, random.nextInt(4) == 0 ? 3600L : null, random.nextInt(5) == 0 ? 2 : 0,
                        List.of("sweep-" + (i / 50), random.nextBoolean() ? "ablation" : "baseline"), "ann@laptop");
                long id = jobs.insert(spec, random.nextInt(3), random.nextInt(3) == 0 ? "lr sweep, see wandb" : null, now);
                ids.add(id);
                int roll = random.nextInt(100);
                if (roll < 20) {
                    continue; // pending
                }
                String node = "node" + (1 + random.nextInt(nodes));
                List<Integer> gpuIds = gpus == 0 ? List.of() : gpus == 1 ? List.of(random.nextInt(4)) : List.of(0, 1);
                List<String> uuids = gpuIds.stream().map(g -> "GPU-" + node + "-" + g).toList();
                Assignment assignment = new Assignment(node, gpuIds, uuids, 1, "token-" + id);
                Instant started = now.plusSeconds(5);
                if (!transitions.place(id, assignment, "~/.nvidb/jobs/" + id + "/1", started)) {
                    continue; // held by a dependency: stays pending
                }
                transitions.recordProcess(id, 1, new ProcessIdentity(100_000 + i, 100_000 + i, 5_000_000L + i, "boot-1"),
                        started);
                annotations.setProgress(id, 1, "epoch " + random.nextInt(40) + "/40 loss=" + random.nextInt(1000) / 1000.0);
                Expected running = new Expected(JobState.RUNNING, 1);
                Instant ended = started.plusSeconds(30 + random.nextInt(3000));
                if (roll < 23) {
                    continue; // running
                } else if (roll < 83) {
                    transitions.finish(id, running, JobState.COMPLETED, 0, null, ended);
                    annotations.setResult(id, "{\"accuracy\": " + random.nextInt(1000) / 1000.0 + ", \"step\": " + i + "}");
                } else if (roll < 93) {
                    transitions.finish(id, running, JobState.FAILED, 1,
                            "exit 1: RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB", ended);
                } else if (roll < 98) {
                    transitions.cancel(id, running, "cancelled by ann@laptop", ended);
                } else {
                    transitions.finish(id, running, JobState.TIMEOUT, null, "ran longer than 3600 s", ended);
                }
            }
        }
        System.out.println("wrote " + count + " jobs to " + file);
    }
}
