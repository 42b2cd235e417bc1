package dev.nvidb.output;

import dev.nvidb.model.GpuClaim;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.PcieSnapshot;
import dev.nvidb.model.ProcessStats;
import dev.nvidb.monitor.PcieLink;
import dev.nvidb.monitor.PcieScore;
import java.util.List;

/**
 * One GPU in every JSON document (monitor and queue alike). The budget fields describe the
 * card as the queue sees it: {@code external_mem_mb} is memory the queue did not start,
 * {@code queue_mem_mb} what its jobs hold, {@code reserved_mb} what they were promised.
 * {@code pcie} is the PCIe link and its traffic, scored against the link (docs/json.md).
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
        String ownership,
        String error,
        JsonPcie pcie,
        List<JsonProcess> processes,
        List<JsonClaim> claims) {

    /**
     * A live claim on the GPU (docs/sharing.md): who reserved how much for which job of which queue,
     * what that job uses there now, and whether it is the asking queue's own ({@code own_queue};
     * always false in the monitor, which is no queue).
     */
    public record JsonClaim(String user, int uid, String queue, String queueId, long jobId, long reservedMb,
                            long usedMb, boolean exclusive, boolean ownQueue, String text) {

        static List<JsonClaim> of(List<GpuClaim> claims, String uuid) {
            return claims.stream().map(claim -> new JsonClaim(claim.user(), claim.uid(), claim.queueName(),
                    claim.queueId(), claim.jobId(), claim.mib(), claim.usedMib().getOrDefault(uuid, 0L), claim.exclusive(),
                    claim.ownQueue(), claim.describe(uuid))).toList();
        }
    }

    /**
     * A process on a GPU; {@code managed} is true for the queue's own jobs. The host figures
     * ({@code cpu_percent} … {@code threads}) are null when the process was gone or unreadable.
     */
    public record JsonProcess(long pid, String user, String name, String command, Boolean commandTruncated,
                              String type, Long memMb, boolean managed, Long jobId, Double cpuPercent,
                              Double hostMemPercent, Long rssBytes, Long elapsedS, String state, Integer threads) {

        static JsonProcess unmanaged(GpuProcess process) {
            return of(process, false, null);
        }

        static JsonProcess of(GpuProcess process, boolean managed, Long jobId) {
            ProcessStats stats = process.stats();
            return new JsonProcess(process.pid(), process.user(), process.name(), process.command(),
                    process.commandTruncated(), process.type(), process.memMb(), managed, jobId, stats.cpuPercent(),
                    stats.hostMemPercent(), stats.rssBytes(), stats.elapsedSeconds(), stats.state(), stats.threads());
        }
    }

    /**
     * A GPU's PCIe link and traffic: what NVML reported ({@code link_gen} … {@code tx_kb_s}) and
     * its score ({@code link}, {@code max_link}, {@code link_gb_s}, {@code rx_percent},
     * {@code tx_percent}), each null when unknown.
     */
    public record JsonPcie(Integer linkGen, Integer linkWidth, String link, Integer maxLinkGen, Integer maxLinkWidth,
                           String maxLink, Double linkGbS, Long rxKbS, Long txKbS, Double rxPercent, Double txPercent) {

        static JsonPcie of(PcieSnapshot pcie) {
            PcieScore score = PcieScore.of(pcie);
            return new JsonPcie(pcie.linkGeneration(), pcie.linkWidth(), label(score.link()), pcie.maxLinkGeneration(),
                    pcie.maxLinkWidth(), label(score.maxLink()), round(score.linkGigabytesPerSecond(), 1000),
                    pcie.rxKilobytesPerSecond(), pcie.txKilobytesPerSecond(), round(score.rxPercent(), 10),
                    round(score.txPercent(), 10));
        }

        private static String label(PcieLink link) {
            return link == null ? null : link.label();
        }

        private static Double round(Double value, int scale) {
            return value == null ? null : Math.round(value * scale) / (double) scale;
        }
    }

    /** The monitor's view of a GPU: no queue, so everything in use is external. */
    public static JsonGpu monitored(String node, GpuSnapshot gpu) {
        return monitored(node, gpu, List.of());
    }

    /** The monitor's view of a GPU with the node's live claims on it. */
    public static JsonGpu monitored(String node, GpuSnapshot gpu, List<GpuClaim> claims) {
        String attribution = !gpu.healthy() ? "unknown" : gpu.blind() ? "blind" : "measured";
        Long external = gpu.healthy() ? gpu.memUsedMb() : null;
        Long queue = gpu.healthy() ? 0L : null;
        Long reserved = gpu.healthy() ? 0L : null;
        return new JsonGpu(node, gpu.index(), gpu.uuid(), gpu.name(), gpu.pciBusId(), gpu.memTotalMb(), gpu.memUsedMb(),
                gpu.memUsedPercent(), gpu.utilPercent(), gpu.memUtilPercent(), gpu.temperatureC(), gpu.powerW(),
                gpu.powerLimitW(), external, queue, reserved, gpu.memFreeMb(), attribution,
                !gpu.healthy() ? "unknown" : gpu.processes().isEmpty() ? "free" : "external", gpu.error(),
                JsonPcie.of(gpu.pcie()), gpu.processes().stream().map(JsonProcess::unmanaged).toList(),
                JsonClaim.of(claims, gpu.uuid()));
    }
}
