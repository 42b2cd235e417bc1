package dev.nvidb.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Scripts the GPUs that the fake {@code libnvidia-ml.so.1} and fake {@code nvidia-smi}
 * report: a fluent builder that writes their state file (format in
 * {@code src/test/native/README.md}). Both re-read the file on every call, so a test may
 * rewrite it between probes, also under a persistent agent.
 *
 * <pre>{@code
 * FakeGpuState.create()
 *     .gpu(0, "NVIDIA H100 80GB HBM3", 81559).used(0, 1024).util(0, 7)
 *     .process(0, ProcessKind.COMPUTE, pid, 512)
 *     .gpu(1, "NVIDIA H100 80GB HBM3", 81559).lost(1)
 *     .writeTo(stateFile);
 * }</pre>
 */
public final class FakeGpuState {

    /** The environment variable that names the state file. */
    public static final String STATE_ENV = "NVIDB_FAKE_NVML_STATE";
    /** NVML error codes useful in tests (values from nvml.h). */
    public static final int NVML_ERROR_NOT_SUPPORTED = 3;
    public static final int NVML_ERROR_NO_PERMISSION = 4;
    public static final int NVML_ERROR_DRIVER_NOT_LOADED = 9;
    public static final int NVML_ERROR_GPU_IS_LOST = 15;
    public static final int NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18;
    public static final int NVML_ERROR_DEPRECATED = 26;
    public static final int NVML_ERROR_UNKNOWN = 999;

    /** Which NVML process list a process appears in. */
    public enum ProcessKind { COMPUTE, GRAPHICS }

    /** GPU metrics that may be absent, unsupported or failing. */
    public enum Metric {
        UTIL("util"), MEM_UTIL("mem_util"), TEMPERATURE("temp_c"),
        POWER("power_mw"), POWER_LIMIT("power_limit_mw"),
        PCIE_LINK_GEN("pcie_link_gen"), PCIE_LINK_WIDTH("pcie_link_width"),
        PCIE_MAX_LINK_GEN("pcie_max_link_gen"), PCIE_MAX_LINK_WIDTH("pcie_max_link_width"),
        PCIE_RX("pcie_rx_kbs"), PCIE_TX("pcie_tx_kbs");

        private final String key;

        Metric(String key) {
            this.key = key;
        }
    }

    private final Map<String, String> settings = new LinkedHashMap<>();
    private final Map<Integer, Map<String, String>> gpus = new TreeMap<>();
    private final Map<Integer, List<String>> processes = new TreeMap<>();

    private FakeGpuState() {
    }

    /** An empty state: NVML starts and reports no GPUs. */
    public static FakeGpuState create() {
        return new FakeGpuState();
    }

    /** Declares GPU {@code index} with its name and total memory; nothing used yet. */
    public FakeGpuState gpu(int index, String name, long totalMib) {
        Map<String, String> gpu = new LinkedHashMap<>();
        gpus.put(index, gpu);
        processes.put(index, new ArrayList<>());
        gpu.put("name", text(name));
        gpu.put("mem_total_mib", Long.toString(totalMib));
        gpu.put("mem_used_mib", "0");
        return this;
    }

    public FakeGpuState uuid(int gpu, String uuid) {
        return gpuKey(gpu, "uuid", text(uuid));
    }

    public FakeGpuState pciBusId(int gpu, String busId) {
        return gpuKey(gpu, "pci", text(busId));
    }

    public FakeGpuState used(int gpu, long mib) {
        return gpuKey(gpu, "mem_used_mib", Long.toString(mib));
    }

    /** Memory the driver reserves: NVML v2 reports it apart, v1 counts it as used. */
    public FakeGpuState reserved(int gpu, long mib) {
        return gpuKey(gpu, "mem_reserved_mib", Long.toString(mib));
    }

    /** GPU utilisation; memory utilisation stays as set, or 0 (NVML reports them together). */
    public FakeGpuState util(int gpu, int percent) {
        gpuKey(gpu, Metric.UTIL.key, Integer.toString(percent));
        gpus.get(gpu).putIfAbsent(Metric.MEM_UTIL.key, "0");
        return this;
    }

    /** GPU and memory utilisation. */
    public FakeGpuState util(int gpu, int percent, int memPercent) {
        gpuKey(gpu, Metric.UTIL.key, Integer.toString(percent));
        return gpuKey(gpu, Metric.MEM_UTIL.key, Integer.toString(memPercent));
    }

    public FakeGpuState temperature(int gpu, int celsius) {
        return gpuKey(gpu, Metric.TEMPERATURE.key, Integer.toString(celsius));
    }

    /** Power draw and enforced limit in milliwatts, as NVML reports them. */
    public FakeGpuState power(int gpu, long drawMilliwatts, long limitMilliwatts) {
        gpuKey(gpu, Metric.POWER.key, Long.toString(drawMilliwatts));
        return gpuKey(gpu, Metric.POWER_LIMIT.key, Long.toString(limitMilliwatts));
    }

    /** The PCIe link the GPU runs at now: generation (1…6) and lane count. */
    public FakeGpuState pcieLink(int gpu, int generation, int width) {
        gpuKey(gpu, Metric.PCIE_LINK_GEN.key, Integer.toString(generation));
        return gpuKey(gpu, Metric.PCIE_LINK_WIDTH.key, Integer.toString(width));
    }

    /** The widest PCIe link this GPU and its slot allow (NVML's "max" link). */
    public FakeGpuState pcieMaxLink(int gpu, int generation, int width) {
        gpuKey(gpu, Metric.PCIE_MAX_LINK_GEN.key, Integer.toString(generation));
        return gpuKey(gpu, Metric.PCIE_MAX_LINK_WIDTH.key, Integer.toString(width));
    }

    /** PCIe throughput in KB/s as NVML reports it: RX what the GPU receives, TX what it sends. */
    public FakeGpuState pcieThroughput(int gpu, long rxKilobytesPerSecond, long txKilobytesPerSecond) {
        gpuKey(gpu, Metric.PCIE_RX.key, Long.toString(rxKilobytesPerSecond));
        return gpuKey(gpu, Metric.PCIE_TX.key, Long.toString(txKilobytesPerSecond));
    }

    /**
     * Each PCIe throughput call blocks this long, as the real driver counts bytes over a
     * 20 ms window before it answers.
     */
    public FakeGpuState pcieSampleMs(long millis) {
        return set("pcie_sample_ms", Long.toString(millis));
    }

    /** The call for this one metric fails with the NVML error code; the rest of the GPU answers. */
    public FakeGpuState metricError(int gpu, Metric metric, int nvmlError) {
        if (nvmlError <= 0) {
            throw new IllegalArgumentException("an NVML error code is positive, not " + nvmlError);
        }
        return gpuKey(gpu, metric.key, "error " + nvmlError);
    }

    /**
     * Marks a metric unsupported: NVML answers NOT_SUPPORTED, nvidia-smi prints
     * {@code [Not Supported]}. A metric never set is also NOT_SUPPORTED but prints {@code [N/A]}.
     */
    public FakeGpuState unsupported(int gpu, Metric metric) {
        return gpuKey(gpu, metric.key, "unsupported");
    }

    /** Every query on this GPU fails with the NVML error code. */
    public FakeGpuState gpuError(int gpu, int nvmlError) {
        return gpuKey(gpu, "error", Integer.toString(nvmlError));
    }

    /** The GPU fell off the bus: every query answers NVML_ERROR_GPU_IS_LOST. */
    public FakeGpuState lost(int gpu) {
        return gpuError(gpu, NVML_ERROR_GPU_IS_LOST);
    }

    public FakeGpuState process(int gpu, ProcessKind kind, long pid, long mib) {
        return processLine(gpu, "proc ", kind, pid, Long.toString(mib), null);
    }

    /** A process with the name NVML reports for it (used when /proc has none). */
    public FakeGpuState process(int gpu, ProcessKind kind, long pid, long mib, String name) {
        return processLine(gpu, "proc ", kind, pid, Long.toString(mib), name);
    }

    /** A compute process whose memory the driver cannot see (NVML_VALUE_NOT_AVAILABLE). */
    public FakeGpuState blindProcess(int gpu, long pid) {
        return blindProcess(gpu, ProcessKind.COMPUTE, pid);
    }

    public FakeGpuState blindProcess(int gpu, ProcessKind kind, long pid) {
        return processLine(gpu, "proc ", kind, pid, "n/a", null);
    }

    /**
     * Enables MIG mode on the GPU with {@code count} MIG devices (indices 0…count-1). As for an
     * unprivileged caller, the GPU's own process lists then answer NO_PERMISSION; each MIG
     * device lists its own processes ({@link #migProcess}).
     */
    public FakeGpuState migDevices(int gpu, int count) {
        if (count < 1 || count > 7) {
            throw new IllegalArgumentException("a GPU holds 1 to 7 MIG devices, not " + count);
        }
        return gpuKey(gpu, "mig_devices", Integer.toString(count));
    }

    /** A process on MIG device {@code device} of a GPU with {@link #migDevices}. */
    public FakeGpuState migProcess(int gpu, int device, ProcessKind kind, long pid, long mib) {
        String count = gpus.containsKey(gpu) ? gpus.get(gpu).get("mig_devices") : null;
        if (count == null || device < 0 || device >= Integer.parseInt(count)) {
            throw new IllegalArgumentException("declare migDevices(" + gpu + ", …) covering device " + device);
        }
        return processLine(gpu, "migproc " + device + " ", kind, pid, Long.toString(mib), null);
    }

    /**
     * Processes start between the agent's calls: each compute-list call on a GPU sees
     * {@code perCall} more processes than the call before (pids from 7000000, 1 MiB each).
     */
    public FakeGpuState processGrowth(int perCall) {
        return set("proc_growth", Integer.toString(perCall));
    }

    /** {@code nvmlDeviceGetMemoryInfo_v2} answers ARGUMENT_VERSION_MISMATCH to every version word. */
    public FakeGpuState memoryV2Mismatch() {
        return set("memory_v2_mismatch", "yes");
    }

    /** nvmlInit fails with this NVML error code (the devices stay scripted for nvidia-smi). */
    public FakeGpuState initFailure(int nvmlError) {
        return set("init_error", Integer.toString(nvmlError));
    }

    /** The driver version; the NVML version becomes {@code 12.<version>}. */
    public FakeGpuState driver(String version) {
        set("driver", text(version));
        return set("nvml", "12." + version);
    }

    /** The CUDA driver version as NVML encodes it: 12040 is CUDA 12.4. */
    public FakeGpuState cudaVersion(int encoded) {
        return set("cuda", Integer.toString(encoded));
    }

    /** Entry size of the _v3 process calls: 24 (nvml.h) or 32 (some R535 drivers). */
    public FakeGpuState v3Stride(int bytes) {
        if (bytes != 24 && bytes != 32) {
            throw new IllegalArgumentException("v3 stride must be 24 or 32, not " + bytes);
        }
        return set("v3_stride", Integer.toString(bytes));
    }

    /** A hung driver: every NVML call and nvidia-smi run blocks this long first. */
    public FakeGpuState hangMs(long millis) {
        return set("hang_ms", Long.toString(millis));
    }

    /** nvidia-smi prints this message on stdout and exits 9, as it does without a driver. */
    public FakeGpuState smiFails(String message) {
        return set("smi", "fail " + text(message));
    }

    /** The state file's text. */
    public String render() {
        StringBuilder out = new StringBuilder("# nvidb fake NVML state\n");
        settings.forEach((key, value) -> out.append(key).append(' ').append(value).append('\n'));
        gpus.forEach((index, keys) -> {
            out.append("gpu ").append(index).append('\n');
            keys.forEach((key, value) -> out.append(key).append(' ').append(value).append('\n'));
            processes.get(index).forEach(line -> out.append(line).append('\n'));
        });
        return out.toString();
    }

    /** Writes the state atomically (temporary file, then rename) and returns {@code file}. */
    public Path writeTo(Path file) {
        Path absolute = file.toAbsolutePath();
        Path temporary = absolute.resolveSibling(absolute.getFileName() + ".tmp");
        try {
            Files.writeString(temporary, render(), StandardCharsets.UTF_8);
            Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write fake GPU state " + file, e);
        }
        return file;
    }

    /** Where the build put the fake NVML (system property {@code nvidb.fake.nvml.dir}). */
    public static Path fakeNvmlDir() {
        String dir = System.getProperty("nvidb.fake.nvml.dir");
        Path path = Path.of(dir != null ? dir : "target/fake-nvml").toAbsolutePath();
        if (!Files.isRegularFile(path.resolve("lib/libnvidia-ml.so.1"))) {
            throw new IllegalStateException("no fake NVML under " + path
                    + "; run the Maven build (src/test/native/build.sh) first");
        }
        return path;
    }

    /** The fake library of a current driver; put it on {@code LD_LIBRARY_PATH}. */
    public static Path libDir() {
        return fakeNvmlDir().resolve("lib");
    }

    /** An older driver: no {@code nvmlDeviceGetMemoryInfo_v2}, no {@code _v3} process calls. */
    public static Path oldLibDir() {
        return fakeNvmlDir().resolve("lib-old");
    }

    /** An ancient driver: like {@link #oldLibDir()} and no {@code _v2} process calls either. */
    public static Path ancientLibDir() {
        return fakeNvmlDir().resolve("lib-ancient");
    }

    /** Holds the fake {@code nvidia-smi}; put it on {@code PATH}. */
    public static Path binDir() {
        return fakeNvmlDir().resolve("bin");
    }

    /**
     * The environment a process needs to see the fake GPUs of {@code stateFile}: the
     * fake library on {@code LD_LIBRARY_PATH}, the fake nvidia-smi first on {@code PATH}.
     */
    public static Map<String, String> environment(Path stateFile) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("LD_LIBRARY_PATH", libDir().toString());
        env.put("PATH", binDir() + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put(STATE_ENV, stateFile.toAbsolutePath().toString());
        return env;
    }

    private FakeGpuState set(String key, String value) {
        settings.put(key, value);
        return this;
    }

    private FakeGpuState gpuKey(int gpu, String key, String value) {
        if (!gpus.containsKey(gpu)) {
            throw new IllegalArgumentException("declare gpu(" + gpu + ", …) first");
        }
        gpus.get(gpu).put(key, value);
        return this;
    }

    private FakeGpuState processLine(int gpu, String key, ProcessKind kind, long pid, String mem, String name) {
        if (!gpus.containsKey(gpu)) {
            throw new IllegalArgumentException("declare gpu(" + gpu + ", …) first");
        }
        String line = key + kind.name().toLowerCase(Locale.ROOT) + " " + pid + " " + mem;
        processes.get(gpu).add(name == null ? line : line + " " + text(name));
        return this;
    }

    /** Values are the rest of a line: no line breaks, no surrounding blanks. */
    private static String text(String value) {
        if (value.isBlank() || value.contains("\n") || value.contains("\r")
                || !value.strip().equals(value)) {
            throw new IllegalArgumentException("not a single-line value: '" + value + "'");
        }
        return value;
    }
}
