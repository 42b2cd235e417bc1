package dev.nvidb.monitor;

import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.ProbeResult;
import java.util.Collection;
import java.util.List;

/**
 * The monitor's capacity line over one probe of many nodes: how many GPUs are available and
 * busy, their average utilisation, and their memory used, total and free. Counts only GPUs of
 * nodes that answered (a node that did not answer has no GPUs to count); a GPU whose state the
 * probe could not establish is counted in {@code unknown} and in nothing else, so it is never
 * offered as available.
 *
 * @param gpus               every GPU the answering nodes reported, failed ones included
 * @param available          GPUs below {@value #AVAILABLE_UTIL_BELOW}% utilisation and below
 *                           {@value #AVAILABLE_MEM_BELOW}% memory used ({@link #available})
 * @param busy               GPUs at {@value #BUSY_UTIL_FROM}% utilisation or more ({@link #busy})
 * @param unknown            GPUs with an error or without memory figures
 * @param averageUtilPercent mean utilisation of the GPUs that reported one; null when none did
 * @param memUsedMb          memory used on the GPUs with known memory, MiB
 * @param memTotalMb         their total memory, MiB
 * @param memFreeMb          their free memory, MiB (the driver's free figure, which leaves out
 *                           memory it reserves; total − used where it gave none)
 */
public record Capacity(
        int gpus,
        int available,
        int busy,
        int unknown,
        Double averageUtilPercent,
        long memUsedMb,
        long memTotalMb,
        long memFreeMb) {

    /** A GPU is available below this utilisation (percent)… */
    public static final int AVAILABLE_UTIL_BELOW = 5;
    /** …and below this share of its memory used (percent). */
    public static final int AVAILABLE_MEM_BELOW = 10;
    /** A GPU is busy from this utilisation on (percent). */
    public static final int BUSY_UTIL_FROM = 50;

    /** The capacity of every GPU of the nodes that answered. */
    public static Capacity of(List<ProbeResult> results) {
        return ofGpus(results.stream().flatMap(result -> result.findSnapshot().stream())
                .flatMap(snapshot -> snapshot.gpus().stream()).toList());
    }

    /** The capacity of these GPUs. */
    public static Capacity ofGpus(Collection<GpuSnapshot> gpus) {
        int available = 0;
        int busy = 0;
        int unknown = 0;
        int reportingUtil = 0;
        long utilSum = 0;
        long used = 0;
        long total = 0;
        long free = 0;
        for (GpuSnapshot gpu : gpus) {
            if (!gpu.healthy()) {
                unknown++;
                continue;
            }
            available += available(gpu) ? 1 : 0;
            busy += busy(gpu) ? 1 : 0;
            if (gpu.utilPercent() != null) {
                reportingUtil++;
                utilSum += gpu.utilPercent();
            }
            used += gpu.memUsedMb();
            total += gpu.memTotalMb();
            free += gpu.memFreeMb() != null ? gpu.memFreeMb() : Math.max(0, gpu.memTotalMb() - gpu.memUsedMb());
        }
        Double average = reportingUtil == 0 ? null : (double) utilSum / reportingUtil;
        return new Capacity(gpus.size(), available, busy, unknown, average, used, total, free);
    }

    /**
     * True for a healthy GPU below {@value #AVAILABLE_UTIL_BELOW}% utilisation with less than
     * {@value #AVAILABLE_MEM_BELOW}% of its memory used. A GPU that does not report its
     * utilisation is not available: nothing says it is idle.
     */
    public static boolean available(GpuSnapshot gpu) {
        return gpu.healthy() && gpu.utilPercent() != null && gpu.utilPercent() < AVAILABLE_UTIL_BELOW
                && gpu.memTotalMb() > 0 && 100.0 * gpu.memUsedMb() / gpu.memTotalMb() < AVAILABLE_MEM_BELOW;
    }

    /** True for a healthy GPU at {@value #BUSY_UTIL_FROM}% utilisation or more. */
    public static boolean busy(GpuSnapshot gpu) {
        return gpu.healthy() && gpu.utilPercent() != null && gpu.utilPercent() >= BUSY_UTIL_FROM;
    }
}
