package dev.nvidb.output;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.queue.AlertView;
import dev.nvidb.queue.GpuView;
import dev.nvidb.queue.NodeView;
import dev.nvidb.queue.NotifyStatus;
import dev.nvidb.queue.QueueStatus;
import dev.nvidb.scheduler.GpuBudget;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/** The queue documents: {@code queue status --json} and {@code queue nodes --json}. */
public final class JsonQueue {

    private JsonQueue() {
    }

    /** {@code queue status --json}. {@code keeper} is null while no keeper is installed (see {@link JsonKeeper}). */
    public record Status(int schemaVersion, boolean ok, List<Node> nodes, List<JsonJob> jobs, Map<String, Integer> counts,
                         List<JsonAlert> alerts, int openAlerts, int pendingReaps, BigDecimal lastTickAt,
                         ClockSkew clockSkew, Object keeper, @JsonProperty("notify") Notify delivery,
                         Long databaseBytes, BigDecimal lastBackupAt) {
    }

    /** Alert delivery ({@code queue.notify}): each channel on; null in {@code queue status} when none is. */
    public record Notify(List<NotifyChannel> channels) {
    }

    /** One delivery channel: whether it began, what it owes, its failures still owed and the latest. */
    public record NotifyChannel(String channel, boolean started, long owed, long failing, String lastError,
                                BigDecimal lastErrorAt, BigDecimal nextAttemptAt) {
    }

    /**
     * The database holds a time from the future by this machine's clock: {@code what} recorded
     * it at {@code recordedAt}, {@code aheadSeconds} ahead. Null in {@code queue status} when not.
     */
    public record ClockSkew(String what, BigDecimal recordedAt, long aheadSeconds) {
    }

    /** {@code queue nodes --json}. */
    public record Nodes(int schemaVersion, boolean ok, List<Node> nodes) {
    }

    /** One queue node with its GPUs' budgets. */
    public record Node(String node, String status, boolean drained, boolean ignored, BigDecimal lastSeenAt,
                       String lastError, int consecutiveFailures, BigDecimal backoffUntil, String hostname,
                       String driverVersion, int runningJobs, List<JsonGpu> gpus,
                       @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                       String slurm,
                       @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                       JsonSharing sharing) {
    }

    /** An open alert. */
    public record JsonAlert(long id, BigDecimal at, String kind, String severity, Long jobId, String node, String message,
                            String detail) {
    }

    public static Status status(QueueStatus status, List<JsonJob> jobs) {
        return status(status, jobs, null);
    }

    /** {@code queue status --json}, the document the CLI, MCP's {@code status} and the web page answer. */
    public static Status status(QueueStatus status, JsonKeeper keeper) {
        return status(status, status.jobs().stream().map(JsonJob::of).toList(), keeper);
    }

    /** {@code queue status --json} with the keeper's state ({@code keeper} null: none installed). */
    public static Status status(QueueStatus status, List<JsonJob> jobs, JsonKeeper keeper) {
        List<JsonAlert> alerts = status.openAlerts().stream().map(JsonQueue::alert).toList();
        return new Status(Json.SCHEMA_VERSION, true, status.nodes().stream().map(JsonQueue::node).toList(), jobs,
                status.counts(), alerts, alerts.size(), status.pendingReaps(), JsonJob.seconds(status.lastTickAt()),
                skew(status.clockSkew()), keeper, notify(status.delivery()),
                status.storage() == null ? null : status.storage().databaseBytes(),
                status.storage() == null ? null : JsonJob.seconds(status.storage().lastBackupAt()));
    }

    private static Notify notify(NotifyStatus delivery) {
        return delivery == null ? null : new Notify(delivery.channels().stream().map(channel -> new NotifyChannel(
                channel.channel(), channel.started(), channel.owed(), channel.failing(), channel.lastError(),
                JsonJob.seconds(channel.lastErrorAt()), JsonJob.seconds(channel.nextAttemptAt()))).toList());
    }

    private static ClockSkew skew(dev.nvidb.queue.ClockSkew skew) {
        return skew == null ? null : new ClockSkew(skew.what(), JsonJob.seconds(skew.recordedAt()),
                skew.ahead().toSeconds());
    }

    public static Nodes nodes(List<NodeView> nodes) {
        return new Nodes(Json.SCHEMA_VERSION, true, nodes.stream().map(JsonQueue::node).toList());
    }

    public static JsonAlert alert(AlertView alert) {
        return new JsonAlert(alert.id(), JsonJob.seconds(alert.at()), alert.kind(), alert.severity(), alert.jobId(),
                alert.node(), alert.message(), alert.detail());
    }

    static Node node(NodeView view) {
        String hostname = view.snapshot() == null ? null : view.snapshot().info().hostname();
        String driver = view.snapshot() == null ? null : view.snapshot().driverVersion();
        return new Node(view.name(), view.status(), view.drained(), view.ignored(), JsonJob.seconds(view.lastSeenAt()),
                view.lastError(), view.failures(), JsonJob.seconds(view.backoffUntil()), hostname, driver,
                view.runningJobs(), view.gpus().stream().map(gpu -> gpu(view.name(), gpu)).toList(), view.slurm(),
                view.snapshot() == null ? null : JsonSharing.of(view.snapshot().claims()));
    }

    static JsonGpu gpu(String node, GpuView view) {
        GpuSnapshot gpu = view.gpu();
        GpuBudget budget = view.budget();
        List<JsonGpu.JsonProcess> processes = gpu.processes().stream().map(process -> process(process, view)).toList();
        return new JsonGpu(node, gpu.index(), gpu.uuid(), gpu.name(), gpu.pciBusId(), gpu.memTotalMb(), gpu.memUsedMb(),
                gpu.memUsedPercent(), gpu.utilPercent(), gpu.memUtilPercent(), gpu.temperatureC(), gpu.powerW(),
                gpu.powerLimitW(), budget == null ? null : budget.externalMb(),
                budget == null ? null : budget.queueUsedMb(), budget == null ? null : budget.reservedMb(),
                budget == null ? null : budget.freeMb(), view.attribution(), view.ownership(), gpu.error(),
                JsonGpu.JsonPcie.of(gpu.pcie()), processes, JsonGpu.JsonClaim.of(view.claims(), gpu.uuid()));
    }

    private static JsonGpu.JsonProcess process(GpuProcess process, GpuView view) {
        Long job = view.jobOfPid().get(process.pid());
        return JsonGpu.JsonProcess.of(process, job != null, job);
    }
}
