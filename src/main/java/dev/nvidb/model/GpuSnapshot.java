package dev.nvidb.model;

import java.util.List;

/**
 * One GPU at one probe. Every metric is nullable: null means the driver could not say,
 * which is different from zero. A non-null {@code error} means the GPU's state could not be
 * established; such a GPU is never a placement target. {@code pcie} is never null:
 * {@link PcieSnapshot#UNKNOWN} when nothing about the link is known.
 */
public record GpuSnapshot(
        int index,
        String uuid,
        String pciBusId,
        String name,
        Long memTotalMb,
        Long memUsedMb,
        Long memFreeMb,
        Integer utilPercent,
        Integer memUtilPercent,
        Integer temperatureC,
        Double powerW,
        Double powerLimitW,
        String error,
        List<GpuProcess> processes,
        PcieSnapshot pcie) {

    public GpuSnapshot {
        processes = List.copyOf(processes);
        pcie = pcie == null ? PcieSnapshot.UNKNOWN : pcie;
    }

    /** A GPU whose PCIe link is unknown (the nvidia-smi CSV fallback, tests). */
    public GpuSnapshot(int index, String uuid, String pciBusId, String name, Long memTotalMb, Long memUsedMb,
                       Long memFreeMb, Integer utilPercent, Integer memUtilPercent, Integer temperatureC, Double powerW,
                       Double powerLimitW, String error, List<GpuProcess> processes) {
        this(index, uuid, pciBusId, name, memTotalMb, memUsedMb, memFreeMb, utilPercent, memUtilPercent, temperatureC,
                powerW, powerLimitW, error, processes, PcieSnapshot.UNKNOWN);
    }

    /** True when the probe established this GPU's memory state. */
    public boolean healthy() {
        return error == null && memTotalMb != null && memUsedMb != null;
    }

    /** True when processes hold memory the driver does not attribute to them (WSL, some consumer cards). */
    public boolean blind() {
        return processes.stream().anyMatch(process -> process.memMb() == null);
    }

    /** Memory used as a percentage of the total, or null when either is unknown. */
    public Integer memUsedPercent() {
        if (memTotalMb == null || memUsedMb == null || memTotalMb == 0) {
            return null;
        }
        return (int) Math.round(100.0 * memUsedMb / memTotalMb);
    }
}
