package dev.nvidb.tui.monitor;

import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The last {@link #SAMPLES} probes of every GPU (utilization, VRAM %, temperature) and of every
 * process (VRAM and its share of the card), kept in memory from the probes the monitor makes
 * anyway: history costs no request of its own. A node's probe is recorded once, however often
 * the screen redraws; a process or GPU that is gone from its node's latest probe is forgotten.
 */
public final class History {

    /** Samples kept per series. */
    public static final int SAMPLES = 60;

    /** The metrics a GPU's history keeps. */
    public enum GpuMetric { UTIL, VRAM_PERCENT, TEMPERATURE }

    /** The metrics a process's history keeps. */
    public enum ProcessMetric { VRAM_MB, GPU_SHARE }

    private final Map<String, Long> seen = new HashMap<>();
    private final Map<String, Map<GpuMetric, Series>> gpus = new HashMap<>();
    private final Map<String, Map<ProcessMetric, Series>> processes = new HashMap<>();

    /** Records every node whose probe is newer than the last one recorded. */
    public void record(List<NodeFeed> nodes) {
        for (NodeFeed node : nodes) {
            Long last = seen.get(node.name());
            if (!node.answered() || last != null && last >= node.sequence()) {
                continue;
            }
            seen.put(node.name(), node.sequence());
            Set<String> liveGpus = new HashSet<>();
            Set<String> liveProcesses = new HashSet<>();
            for (GpuSnapshot gpu : node.latest().snapshot().gpus()) {
                String key = GpuRow.key(node.name(), gpu.index());
                liveGpus.add(key);
                Map<GpuMetric, Series> series = gpus.computeIfAbsent(key, k -> new HashMap<>());
                add(series, GpuMetric.UTIL, gpu.utilPercent() == null ? null : gpu.utilPercent().doubleValue());
                add(series, GpuMetric.VRAM_PERCENT, gpu.memUsedPercent() == null ? null : gpu.memUsedPercent().doubleValue());
                add(series, GpuMetric.TEMPERATURE, gpu.temperatureC() == null ? null : gpu.temperatureC().doubleValue());
                for (GpuProcess process : gpu.processes()) {
                    ProcessRow row = new ProcessRow(new GpuRow(node, gpu), process);
                    liveProcesses.add(row.key());
                    Map<ProcessMetric, Series> perProcess = processes.computeIfAbsent(row.key(), k -> new HashMap<>());
                    add(perProcess, ProcessMetric.VRAM_MB, process.memMb() == null ? null : process.memMb().doubleValue());
                    add(perProcess, ProcessMetric.GPU_SHARE, row.percentOfGpu() == null ? null
                            : row.percentOfGpu().doubleValue());
                }
            }
            String prefix = node.name() + "#";
            gpus.keySet().removeIf(key -> key.startsWith(prefix) && !liveGpus.contains(key));
            processes.keySet().removeIf(key -> key.startsWith(prefix) && !liveProcesses.contains(key));
        }
    }

    /** The samples of {@code metric} for the GPU {@code key} ({@link GpuRow#key()}), oldest first. */
    public List<Double> gpu(String key, GpuMetric metric) {
        Map<GpuMetric, Series> series = gpus.get(key);
        return series == null || !series.containsKey(metric) ? List.of() : series.get(metric).values();
    }

    /** The samples of {@code metric} for the process {@code key} ({@link ProcessRow#key()}), oldest first. */
    public List<Double> process(String key, ProcessMetric metric) {
        Map<ProcessMetric, Series> series = processes.get(key);
        return series == null || !series.containsKey(metric) ? List.of() : series.get(metric).values();
    }

    private static <K> void add(Map<K, Series> series, K metric, Double value) {
        series.computeIfAbsent(metric, k -> new Series()).add(value);
    }

    /** One metric's last samples; null is a probe that could not say. */
    private static final class Series {
        private final List<Double> values = new ArrayList<>();

        void add(Double value) {
            values.add(value);
            if (values.size() > SAMPLES) {
                values.remove(0);
            }
        }

        List<Double> values() {
            return Collections.unmodifiableList(new ArrayList<>(values));
        }
    }
}
