package dev.nvidb.output;

import dev.nvidb.queue.GpuView;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.NodeView;
import dev.nvidb.queue.NotifyPass;
import dev.nvidb.queue.NotifyStatus;
import dev.nvidb.queue.QueueStatus;
import dev.nvidb.model.Assignment;
import dev.nvidb.model.Dependency;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.PcieSnapshot;
import dev.nvidb.model.ProcessStats;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import dev.nvidb.model.JobState;
import dev.nvidb.model.JobStatus;
import dev.nvidb.model.JobStatus.Outcome;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.NodeClaims;
import dev.nvidb.model.GpuClaim;
import dev.nvidb.model.QueueDemand;
import dev.nvidb.scheduler.GpuBudget;
import dev.nvidb.scheduler.GpuCapacity;
import dev.nvidb.queue.AlertView;
import dev.nvidb.queue.EventView;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Constructed queue records for the golden-file tests: no database, no node, no clock. Every
 * figure is fixed, so the documents they render are byte-for-byte stable.
 */
public final class QueueSamples {

    /** "Now" for every rendering: 2025-11-30 12:00:00 UTC. */
    public static final Instant NOW = Instant.parse("2025-11-30T12:00:00Z");
    static final long HEADROOM_MB = 512;

    private QueueSamples() {
    }

    static Instant ago(long seconds) {
        return NOW.minusSeconds(seconds);
    }

    private static JobSpec spec(String name, String command, int gpus, long vramMb, String node, String workdir,
                                Map<String, String> env, List<Dependency> after, Long timeout, int retries,
                                List<String> tags) {
        return new JobSpec(name, command, gpus, vramMb, node, workdir, env, after, timeout, retries, tags, "alice@laptop");
    }

    private static Assignment on(String node, int attempt, Integer... gpus) {
        List<Integer> ids = List.of(gpus);
        return new Assignment(node, ids, ids.stream().map(index -> uuid(node, index)).toList(), attempt,
                "token-" + node + "-" + attempt + "-" + ids);
    }

    static String uuid(String node, int index) {
        return "GPU-" + (node.equals("gpu-a") ? "aaaaaaaa" : "bbbbbbbb") + "-0000-0000-0000-00000000000" + index;
    }

    /** Finished (completed, with progress and a result document). */
    static final Job COMPLETED = new Job(7, spec("eval", "python eval.py --split test", 1, 8192, null, "~/proj",
            orderedEnv("WANDB_MODE", "offline", "HF_TOKEN", "secret"), List.of(), 3600L, 0, List.of("eval", "v2")),
            new JobStatus.Ended(Outcome.COMPLETED, ago(3400), 0, on("gpu-a", 1, 1), ago(7000)), 0, ago(7200), 1, null,
            "baseline A, lr=1e-4", "epoch 10/10 loss 0.118",
            "{\"accuracy\": 0.913, \"checkpoint\": \"runs/7/best.pt\"}");

    /** Finished badly: a CPU-only job that exited 1. */
    static final Job FAILED = new Job(8, spec("prep", "python prepare_data.py", 0, 0, null, null, Map.of(), List.of(),
            null, 0, List.of()), new JobStatus.Ended(Outcome.FAILED, ago(5880), 1, on("gpu-a", 1), ago(5900),
            dev.nvidb.model.FailureClass.EXIT_CODE), 0,
            ago(6000), 1, "exited with status 1", null, "read 3 of 12 shards", null);

    /** Running on a node that stopped answering: unverified, not plainly running. */
    static final Job UNVERIFIED = new Job(9, spec("sweep", "python sweep.py --trial 4", 2, 8192, "gpu-b", null,
            Map.of(), List.of(), null, 2, List.of("sweep")), new JobStatus.Running(on("gpu-b", 2, 0, 1), ago(2900)), 0,
            ago(3000), 2, "its process vanished on gpu-b without an exit status", null, "trial 4 step 1200", null);
    static final Instant UNVERIFIED_SINCE = ago(300);

    /** Running and verified, on an up node. */
    static final Job RUNNING = new Job(10, spec("finetune", "python finetune.py --lr 3e-5", 1, 16384, null, null,
            Map.of(), List.of(), null, 0, List.of()), new JobStatus.Running(on("gpu-a", 1, 0), ago(1200)), 5, ago(1300),
            1, null, null, "epoch 2/8 loss 0.733", null);

    /** Pending: waits for memory, with the scheduler's reason. */
    static final Job PENDING = new Job(12, spec("train", "python train.py --epochs 10", 1, 61440, null, null, Map.of(),
            List.of(), null, 0, List.of()), JobStatus.PENDING, 0, ago(600), 0, null, "try a larger batch", null, null);
    static final String PENDING_REASON = "waiting for 61440 MiB on 1 GPU (best: gpu-a GPU0 has 56808 MiB free)";

    /**
     * Held (a held job's reason is "held: …"), after depending on jobs 12 and 9: the one hold the
     * engine places today, after a job's launch failed twice.
     */
    static final String LAUNCH_ERROR = "launch failed on gpu-a: cannot create ~/.nvidb/jobs/13/2: No space left on device";
    static final String HOLD = "its launch failed twice (" + LAUNCH_ERROR + "); release it with 'nvidb job requeue 13'";
    static final Job HELD = new Job(13, spec("report", "python report.py", 1, 4096, null, null, Map.of(),
            List.of(new Dependency(12, false), new Dependency(9, false)), null, 0, List.of()), new JobStatus.Pending(HOLD),
            -1, ago(500), 2, LAUNCH_ERROR, null, null, null);

    /** The job list, in id order, as {@code job ls} gets it. */
    static List<JobView> jobs() {
        return List.of(
                new JobView(COMPLETED, null, null, "~/.nvidb/jobs/7/1"),
                new JobView(FAILED, null, null, "~/.nvidb/jobs/8/1"),
                new JobView(UNVERIFIED, null, UNVERIFIED_SINCE, "~/.nvidb/jobs/9/2"),
                new JobView(RUNNING, null, null, "~/.nvidb/jobs/10/1"),
                new JobView(PENDING, PENDING_REASON, null, null),
                new JobView(HELD, "held: " + HOLD, null, null));
    }

    /** A job's JSON view, built the way the commands build it. */
    static JsonJob json(JobView view) {
        return JsonJob.of(view.job(), view.pendingReason(), view.unverifiedSince(), Json.parse(view.job().result()));
    }

    static List<JsonJob> jsonJobs() {
        return jobs().stream().map(QueueSamples::json).toList();
    }

    private static Map<String, String> orderedEnv(String... pairs) {
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }

    // ---- nodes ----

    private static NodeInfo info(String hostname) {
        return new NodeInfo(hostname, "boot-" + hostname, 1764400000.0, List.of(1.5, 1.25, 1.0), 32,
                "/home/alice/.nvidb/jobs", 412000L, "3.11.2", "0", false);
    }

    /**
     * gpu-a's claims directory (docs/sharing.md): this queue's claim for job 10 on GPU0, carol's
     * queue "laptop" holding GPU1 for its job 4 and waiting with two more, and a fair-share policy
     * that caps everyone at 2 GPUs.
     */
    static final NodeClaims CLAIMS = new NodeClaims("/tmp/nvidb-claims", null, List.of(), List.of(
            new GpuClaim("alice", 1000, "5f1c0d2e9a7b4c3d", "desk", 10, List.of(uuid("gpu-a", 0)), 16384, false,
                    Map.of(uuid("gpu-a", 0), 18000L), true),
            new GpuClaim("carol", 1002, "9e8d7c6b5a4f3e2d", "laptop", 4, List.of(uuid("gpu-a", 1)), 8192, false,
                    Map.of(), false)),
            List.of(new QueueDemand("carol", 1002, "9e8d7c6b5a4f3e2d", "laptop", 2, 1, 8192, false,
                    ago(900).getEpochSecond(), false)),
            "share: fair\ndefault:\n  max_gpus: 2\n", null, new NodeClaims.User(1000, "alice"));

    /**
     * gpu-a answered: GPU0 measured (job 10's process and bob's notebook), GPU1 blind (the
     * driver names a process but not its memory), GPU2 lost (state unknown, not a target).
     */
    static NodeView upNode() {
        List<Job> running = List.of(RUNNING);
        GpuSnapshot measured = new GpuSnapshot(0, uuid("gpu-a", 0), "00000000:01:00.0", "NVIDIA A100 80GB PCIe", 81920L,
                24600L, 57320L, 88, 41, 67, 251.5, 300.0, null, List.of(
                new GpuProcess(4242, "compute", 18000L, "alice", "python3", "python3 finetune.py --lr 3e-5", false,
                        new ProcessStats(101.3, 2.41, 6_469_025_792L, 5400L, "R", 37)),
                new GpuProcess(5151, "compute", 6000L, "bob", "python3", "jupyter-kernel --f=kernel-5151.json")),
                new PcieSnapshot(4, 16, 4, 16, 6_300_000L, 150_000L));
        GpuBudget measuredBudget = GpuBudget.of("gpu-a",
                GpuCapacity.measured(0, uuid("gpu-a", 0), 81920, 24600, 6000, Map.of(10L, 18000L)), running, HEADROOM_MB);
        GpuSnapshot blind = new GpuSnapshot(1, uuid("gpu-a", 1), "00000000:41:00.0", "NVIDIA GeForce RTX 3090 Ti",
                24564L, 15565L, 8999L, 10, 3, 45, 120.0, 450.0, null, List.of(
                new GpuProcess(6001, "compute", null, "carol", "python3.11", null)));
        GpuBudget blindBudget = GpuBudget.of("gpu-a", GpuCapacity.blind(1, uuid("gpu-a", 1), 24564, 15565), running,
                HEADROOM_MB);
        GpuSnapshot lost = new GpuSnapshot(2, uuid("gpu-a", 2), "00000000:81:00.0", "NVIDIA A100 80GB PCIe", null, null,
                null, null, null, null, null, null, "GPU is lost", List.of());
        NodeSnapshot snapshot = new NodeSnapshot(GpuSource.NVML, null, info("gpu-a"), "550.54.14", "12.4",
                List.of(measured, blind, lost), CLAIMS);
        return new NodeView("gpu-a", "up", false, false, ago(2), null, 0, null, snapshot, List.of(
                new GpuView(measured, measuredBudget, "measured", Map.of(4242L, 10L), CLAIMS.on(measured.uuid())),
                new GpuView(blind, blindBudget, "blind", Map.of(), CLAIMS.on(blind.uuid())),
                new GpuView(lost, null, "unknown", Map.of())), 1);
    }

    /** gpu-b stopped answering: its GPUs as of its last answer, its job unverified. */
    static NodeView downNode() {
        List<Job> running = List.of(UNVERIFIED);
        List<GpuView> gpus = new java.util.ArrayList<>();
        List<GpuSnapshot> snapshots = new java.util.ArrayList<>();
        for (int index = 0; index < 2; index++) {
            GpuSnapshot gpu = new GpuSnapshot(index, uuid("gpu-b", index), "00000000:0" + (index + 1) + ":00.0",
                    "NVIDIA L40S", 46068L, 7400L, 38668L, 97, 60, 71, 300.25, 350.0, null, List.of(
                    new GpuProcess(7100 + index, "compute", 7000L, "alice", "python3", "python3 sweep.py --trial 4")));
            GpuBudget budget = GpuBudget.of("gpu-b", GpuCapacity.measured(index, uuid("gpu-b", index), 46068, 7400, 0,
                    Map.of(9L, 7000L)), running, HEADROOM_MB);
            snapshots.add(gpu);
            gpus.add(new GpuView(gpu, budget, "measured", Map.of(7100L + index, 9L)));
        }
        NodeSnapshot snapshot = new NodeSnapshot(GpuSource.NVML, null, info("gpu-b.lab"), "550.54.14", "12.4", snapshots);
        return new NodeView("gpu-b", "down", false, false, ago(330),
                "gpu-b (10.0.0.3:22): no answer within 5 s while connecting", 3, NOW.plusSeconds(40), snapshot, gpus, 1);
    }

    /** gpu-c was drained before it was ever probed. */
    static NodeView neverSeenNode() {
        return new NodeView("gpu-c", "unknown", true, false, null, null, 0, null, null, List.of(), 0);
    }

    static List<NodeView> nodes() {
        return List.of(upNode(), downNode(), neverSeenNode());
    }

    static List<AlertView> openAlerts() {
        return List.of(
                new AlertView(4, ago(5880), "job_failed:8:1", "job_failed", "error", 8L, "gpu-a",
                        "job 8 (prep) exited with status 1 on gpu-a",
                        "Traceback (most recent call last):\nFileNotFoundError: data/raw/shard-03.csv", null),
                new AlertView(5, ago(300), "node_down:gpu-b:" + ago(330).toEpochMilli(), "node_down", "error", null, "gpu-b",
                        "node gpu-b is not answering: gpu-b (10.0.0.3:22): no answer within 5 s while connecting", null,
                        null));
    }

    public static QueueStatus status() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (JobState state : JobState.values()) {
            counts.put(state.key(), 0);
        }
        jobs().forEach(view -> counts.merge(view.job().state().key(), 1, Integer::sum));
        return new QueueStatus(nodes(), jobs(), counts, openAlerts(), 1, ago(2), null, delivery(),
                new QueueStatus.Storage(3_145_728, ago(3 * 3600)));
    }

    /** Alert delivery: the log is up to date, the hook fails and owes two alerts. */
    static NotifyStatus delivery() {
        return new NotifyStatus(List.of(
                new NotifyStatus.Channel("log", true, 0, 0, null, null, null),
                new NotifyStatus.Channel("command", true, 2, 1, "/usr/local/bin/page-me exited 1: no route to host",
                        ago(30), ago(-10))));
    }

    /** A daemon pass that delivered on the log and failed on the hook. */
    static NotifyPass deliveryPass() {
        return new NotifyPass(List.of(
                new NotifyPass.Channel("log", 2, 1, 0, 0, null, 0, null),
                new NotifyPass.Channel("command", 1, 1, 0, 1,
                        "alert 3: /usr/local/bin/page-me exited 1: no route to host", 1, ago(-10))));
    }

    // ---- events ----

    static List<EventView> events() {
        return List.of(
                new EventView(41, ago(5880), 8L, null, "failed",
                        "{\"from\":\"running\",\"exit_code\":1,\"error\":\"exited with status 1\"}"),
                new EventView(42, ago(3400), 7L, null, "completed",
                        "{\"from\":\"running\",\"exit_code\":0,\"error\":null}"),
                new EventView(43, ago(2900), 9L, null, "retried", "{\"from\":\"running\",\"attempt\":1,"
                        + "\"reason\":\"its process vanished on gpu-b without an exit status\"}"),
                new EventView(44, ago(1200), 10L, "gpu-a", "placed",
                        "{\"gpu_ids\":[0],\"attempt\":1,\"launch_token\":\"token-gpu-a-1-[0]\"}"),
                new EventView(45, ago(1199), 10L, null, "started", "{\"pid\":4242,\"attempt\":1}"),
                new EventView(46, ago(600), 12L, null, "submitted",
                        "{\"name\":\"train\",\"gpus\":1,\"vram_mb\":61440,\"priority\":0}"),
                new EventView(47, ago(300), 9L, "gpu-b", "unverified", null),
                new EventView(48, ago(200), 10L, null, "priority", "{\"priority\":5}"),
                new EventView(49, ago(100), null, "gpu-c", "drained", null),
                new EventView(50, ago(60), 3L, "gpu-a", "reaped", "{\"reap_id\":2}"),
                new EventView(51, ago(30), null, null, "purged", "{\"count\":2,\"states\":[\"completed\",\"cancelled\"]}"));
    }
}
