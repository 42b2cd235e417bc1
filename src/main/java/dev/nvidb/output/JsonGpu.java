package dev.nvidb.output;

import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import java.util.List;

/**
 * One GPU in every JSON document (monitor and queue alike). The budget fields describe the
 * card as the queue sees it: {@code external_mem_mb} is memory the queue did not start,
 * {@code queue_mem_mb} what its jobs hold, {@code reserved_mb} what they were promised.
 */
public record JsonGpu(
        String node,
        int index,
        String uuid,
        String name,
        String pciBusId,
        Long memTotalMb,
        Long memUsedMb,
        Integer memUsedPercent,
        Integer utilPercent,
        Integer memUtilPercent,
        Integer temperatureC,
        Double powerW,
        Double powerLimitW,
        Long externalMemMb,
        Long queueMemMb,
        Long reservedMb,
        Long freeMb,
        String attribution,
        String error,
        List<JsonProcess> processes) {

    /** A process on a GPU; {@code managed} is true for the queue's own jobs. */
    public record JsonProcess(long pid, String user, String name, String command, String type, Long memMb,
                              boolean managed, Long jobId) {

        static JsonProcess unmanaged(GpuProcess process) {
            return new JsonProcess(process.pid(), process.user(), process.name(), process.command(), process.type(),
                    process.memMb(), false, null);
        }
    }

    /** The monitor's view of a GPU: no queue, so everything in use is external. */
    public static JsonGpu monitored(String node, GpuSnapshot gpu) {
        String attribution = !gpu.healthy() ? "unknown" : gpu.blind() ? "blind" : "measured";
        Long external = gpu.healthy() ? gpu.memUsedMb() : null;
        Long queue = gpu.healthy() ? 0L : null;
        Long reserved = gpu.healthy() ? 0L : null;
        return new JsonGpu(node, gpu.index(), gpu.uuid(), gpu.name(), gpu.pciBusId(), gpu.memTotalMb(), gpu.memUsedMb(),
                gpu.memUsedPercent(), gpu.utilPercent(), gpu.memUtilPercent(), gpu.temperatureC(), gpu.powerW(),
                gpu.powerLimitW(), external, queue, reserved, gpu.memFreeMb(), attribution, gpu.error(),
                gpu.processes().stream().map(JsonProcess::unmanaged).toList());
    }
}
