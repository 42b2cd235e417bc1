package dev.nvidb.tui.monitor;

import dev.nvidb.model.GpuProcess;
import java.util.Locale;

/**
 * One process of the selected GPU, with the GPU it holds memory on.
 *
 * @param gpu     the GPU row
 * @param process the process
 */
public record ProcessRow(GpuRow gpu, GpuProcess process) {

    /** Stable across probes: node and pid. */
    public String key() {
        return gpu.node().name() + "#" + process.pid();
    }

    /** Its VRAM as a percentage of the card's total, or null when either is unknown. */
    public Integer percentOfGpu() {
        Long total = gpu.gpu().memTotalMb();
        Long held = process.memMb();
        return total == null || held == null || total == 0 ? null : (int) Math.round(100.0 * held / total);
    }

    /** Its VRAM as a percentage of the card's used memory, or null when either is unknown. */
    public Integer percentOfUsed() {
        Long used = gpu.gpu().memUsedMb();
        Long held = process.memMb();
        return used == null || held == null || used == 0 ? null : (int) Math.round(100.0 * held / used);
    }

    /** The best description of what runs: the command line, else the name. */
    public String commandLine() {
        if (process.command() != null && !process.command().isBlank()) {
            return process.command();
        }
        return process.name() == null ? "?" : process.name();
    }

    /** Whether the live filter {@code query} matches pid, user, type, name or command (case-insensitive). */
    public boolean matches(String query) {
        if (query == null || query.isEmpty()) {
            return true;
        }
        String needle = query.toLowerCase(Locale.ROOT);
        for (String field : new String[] {Long.toString(process.pid()), process.user(), process.type(), process.name(),
                process.command()}) {
            if (field != null && field.toLowerCase(Locale.ROOT).contains(needle)) {
                return true;
            }
        }
        return false;
    }
}
