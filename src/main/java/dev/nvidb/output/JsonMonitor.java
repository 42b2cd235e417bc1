package dev.nvidb.output;

import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
import dev.nvidb.monitor.Capacity;
import java.util.List;

/**
 * {@code nvidb --once --json}: the capacity line over all GPUs, then every probed node with
 * its GPUs, or its error in its place.
 */
public record JsonMonitor(int schemaVersion, boolean ok, JsonCapacity capacity, List<JsonMonitorNode> nodes) {

    /**
     * {@link Capacity} of the GPUs of the nodes that answered: counts, average utilisation
     * (null when no GPU reported one, 1 decimal) and memory in MiB.
     */
    public record JsonCapacity(int gpus, int available, int busy, int unknown, Double avgUtilPercent, long memUsedMb,
                               long memTotalMb, long memFreeMb) {

        static JsonCapacity of(Capacity capacity) {
            Double average = capacity.averageUtilPercent() == null ? null
                    : Math.round(capacity.averageUtilPercent() * 10) / 10.0;
            return new JsonCapacity(capacity.gpus(), capacity.available(), capacity.busy(), capacity.unknown(), average,
                    capacity.memUsedMb(), capacity.memTotalMb(), capacity.memFreeMb());
        }
    }

    /**
     * One node. {@code status} is "up" (answered with GPU data), "no_gpu" (answered, but has
     * no usable NVIDIA driver; {@code error} says why) or "down" (did not answer).
     */
    public record JsonMonitorNode(
            String node,
            String address,
            String status,
            String error,
            String source,
            String hostname,
            String bootId,
            List<Double> load,
            Integer cpuCount,
            Long diskFreeMb,
            String driverVersion,
            String cudaVersion,
            long probeMs,
            List<JsonGpu> gpus,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
            JsonSharing sharing) {
    }

    /** The document for {@code nvidb --once} on this machine alone: ok when it answered with GPU data. */
    public static JsonMonitor of(List<ProbeResult> results) {
        return of(results, results.stream().allMatch(result -> result.snapshot() != null && !result.degraded()));
    }

    /** The document with {@code ok} as the command decided it (the same as its exit code 0). */
    public static JsonMonitor of(List<ProbeResult> results, boolean ok) {
        return new JsonMonitor(Json.SCHEMA_VERSION, ok, JsonCapacity.of(Capacity.of(results)),
                results.stream().map(JsonMonitor::node).toList());
    }

    private static JsonMonitorNode node(ProbeResult result) {
        long millis = result.elapsed().toMillis();
        NodeSnapshot snapshot = result.snapshot();
        if (snapshot == null) {
            return new JsonMonitorNode(result.node(), result.address(), "down", result.failure(), null, null, null,
                    null, null, null, null, null, millis, List.of(), null);
        }
        NodeInfo info = snapshot.info();
        String status = result.degraded() ? "no_gpu" : "up";
        return new JsonMonitorNode(result.node(), result.address(), status, snapshot.error(),
                snapshot.source().name().toLowerCase().replace('_', '-'), info.hostname(), info.bootId(), info.load(),
                info.cpuCount(), info.diskFreeMb(), snapshot.driverVersion(), snapshot.cudaVersion(), millis,
                snapshot.gpus().stream().map(gpu -> JsonGpu.monitored(result.node(), gpu,
                        snapshot.claims().on(gpu.uuid()))).toList(), JsonSharing.of(snapshot.claims()));
    }
}
