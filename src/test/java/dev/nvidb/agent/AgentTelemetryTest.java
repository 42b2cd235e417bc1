package dev.nvidb.agent;

import static dev.nvidb.testing.FakeGpuState.ProcessKind.COMPUTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.PcieSnapshot;
import dev.nvidb.model.ProcessStats;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.FakeGpuState.Metric;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The telemetry the monitor shows beyond memory and utilisation, as the real agent reports it
 * against the fake NVML: each GPU's PCIe link and throughput, and the host figures of real
 * processes named as GPU processes (state, threads, RSS, age, CPU use, full command).
 */
class AgentTelemetryTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration LIMIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;
    Path state;
    LocalAgent agent;
    private final List<Process> started = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        agent = LocalAgent.in(dir);
        state = agent.state();
    }

    @AfterEach
    void stopProcesses() throws InterruptedException {
        for (Process process : started) {
            process.destroyForcibly().waitFor();
        }
    }

    @Test
    void reportsEachGpusPcieLinkAndThroughput() throws Exception {
        FakeGpuState.create()
                .gpu(0, "NVIDIA H100 PCIe", 81559).pcieLink(0, 5, 16).pcieMaxLink(0, 5, 16)
                .pcieThroughput(0, 12_500_000, 3_200)
                // An idle card drops to a lower generation; a riser gives it fewer lanes.
                .gpu(1, "NVIDIA RTX A6000", 49140).pcieLink(1, 1, 4).pcieMaxLink(1, 4, 16).pcieThroughput(1, 0, 7)
                .writeTo(state);

        JsonNode gpus = probe().get("gpus");

        assertPcie(gpus.get(0).get("pcie"), 5, 16, 5, 16, 12_500_000L, 3_200L);
        assertPcie(gpus.get(1).get("pcie"), 1, 4, 4, 16, 0L, 7L);
    }

    @Test
    void aPcieFigureNvmlCannotGiveIsNullAndNeverFailsTheGpu() throws Exception {
        FakeGpuState.create()
                .gpu(0, "NVIDIA H100", 81559).used(0, 4096).util(0, 30)
                // GPU_IS_LOST from one call would fail the GPU if it were any other metric.
                .pcieLink(0, 4, 16).metricError(0, Metric.PCIE_LINK_GEN, FakeGpuState.NVML_ERROR_GPU_IS_LOST)
                .pcieMaxLink(0, 4, 16).unsupported(0, Metric.PCIE_MAX_LINK_WIDTH)
                .pcieThroughput(0, 900, 800).metricError(0, Metric.PCIE_TX, FakeGpuState.NVML_ERROR_UNKNOWN)
                .process(0, COMPUTE, AgentScriptTest.NO_SUCH_PID, 4000)
                .gpu(1, "NVIDIA H100", 81559).lost(1).pcieLink(1, 4, 16)
                .writeTo(state);

        JsonNode gpus = probe().get("gpus");

        JsonNode healthy = gpus.get(0);
        assertTrue(healthy.get("error").isNull(), healthy.toString());
        assertEquals(4096, healthy.get("mem_used_mb").asLong());
        assertEquals(30, healthy.get("util_percent").asInt());
        assertEquals(1, healthy.get("processes").size());
        assertPcie(healthy.get("pcie"), null, 16, 4, null, 900L, null);
        JsonNode lost = gpus.get(1);
        assertEquals("GPU is lost", lost.get("error").asText());
        assertPcie(lost.get("pcie"), null, null, null, null, null, null);
    }

    @Test
    void aGpuThatReportsNoPcieHasAnAllNullPcieObject() throws Exception {
        FakeGpuState.create().gpu(0, "NVIDIA GeForce RTX 4090", 24564).writeTo(state);

        JsonNode gpu = probe().get("gpus").get(0);

        assertTrue(gpu.get("error").isNull());
        assertPcie(gpu.get("pcie"), null, null, null, null, null, null);
    }

    @Test
    void readsTheThroughputOfEveryGpuWhileEachSampleTakesItsTime() throws Exception {
        // Each reading takes 500 ms, as the driver's 20 ms sample would at scale. That they are
        // read at once (about 0.5 s plus the agent's start, not 2 s) is a figure of bench/run's
        // (PcieProbeMain), not a timed assertion here: this checks each GPU gets its own reading.
        FakeGpuState gpus = FakeGpuState.create().pcieSampleMs(500);
        IntStream.range(0, 4).forEach(i -> gpus.gpu(i, "NVIDIA H100", 81559).pcieThroughput(i, 1000 + i, 2000 + i));
        gpus.writeTo(state);

        JsonNode reply = probe();

        for (int i = 0; i < 4; i++) {
            JsonNode pcie = reply.get("gpus").get(i).get("pcie");
            assertEquals(1000 + i, pcie.get("rx_kb_s").asLong());
            assertEquals(2000 + i, pcie.get("tx_kb_s").asLong());
        }
    }

    @Test
    void describesARealProcessFromProc() throws Exception {
        Process sleeper = start("sleep", "300");
        Polling.until(LIMIT, () -> statState(sleeper.pid()), "S"::equals, "sleep to be asleep, its memory settled");
        long init = 1;  // old enough that its age is many seconds, whatever the machine
        FakeGpuState.create().gpu(0, "NVIDIA A100", 40960).used(0, 3000)
                .process(0, COMPUTE, sleeper.pid(), 2000).process(0, COMPUTE, init, 1000)
                .writeTo(state);
        Instant before = Instant.now();

        JsonNode processes = probe().get("gpus").get(0).get("processes");

        JsonNode sleep = processes.get(0);
        assertEquals("sleep 300", sleep.get("command").asText());
        assertFalse(sleep.get("command_truncated").asBoolean());
        assertEquals("S", sleep.get("state").asText());
        assertEquals(1, sleep.get("threads").asInt());
        long rss = vmRssBytes(sleeper.pid());
        assertEquals(rss, sleep.get("rss_bytes").asLong());
        assertEquals(100.0 * rss / memTotalBytes(), sleep.get("host_mem_percent").asDouble(), 0.006);
        assertTrue(sleep.get("cpu_percent").isNumber(), sleep.toString());
        assertTrue(sleep.get("cpu_percent").asDouble() < 5, "a sleeping process uses no CPU: " + sleep);
        JsonNode first = processes.get(1);
        Instant started = ProcessHandle.of(init).orElseThrow().info().startInstant().orElseThrow();
        long age = Duration.between(started, before).toSeconds();
        assertTrue(age > 2, "pid 1 started " + age + " s ago");
        assertTrue(Math.abs(first.get("elapsed_s").asLong() - age) <= 2, first + " vs " + age + " s");
    }

    @Test
    void namesTheStateAndThreadsAProcessHasNow() throws Exception {
        Process stopped = start("sleep", "300");
        new ProcessBuilder("kill", "-STOP", Long.toString(stopped.pid())).start().waitFor();
        Polling.until(LIMIT, () -> statState(stopped.pid()), "T"::equals, "the stopped state");
        Process threaded = start(python(), "-c", "import threading, time\n"
                + "for _ in range(3):\n"
                + "    threading.Thread(target=time.sleep, args=(300,), daemon=True).start()\n"
                + "time.sleep(300)\n");
        Polling.until(LIMIT, () -> status(threaded.pid(), "Threads"), "4"::equals, "four threads");
        FakeGpuState.create().gpu(0, "NVIDIA A100", 40960).used(0, 2)
                .process(0, COMPUTE, stopped.pid(), 1).process(0, COMPUTE, threaded.pid(), 1)
                .writeTo(state);

        JsonNode processes = probe().get("gpus").get(0).get("processes");

        assertEquals("T", processes.get(0).get("state").asText());
        assertEquals(4, processes.get(1).get("threads").asInt());
    }

    @Test
    void aCommandLineLongerThanTheLimitIsCutAndSaysSo() throws Exception {
        List<String> command = new ArrayList<>(List.of("sleep", "300"));
        command.addAll(Collections.nCopies(2100, "0"));  // sleep adds its arguments up
        Process sleeper = start(command.toArray(String[]::new));
        FakeGpuState.create().gpu(0, "NVIDIA A100", 40960).process(0, COMPUTE, sleeper.pid(), 1).writeTo(state);

        JsonNode process = probe().get("gpus").get(0).get("processes").get(0);

        String full = String.join(" ", command);
        assertEquals(full.substring(0, 4096), process.get("command").asText());
        assertTrue(process.get("command_truncated").asBoolean());
    }

    @Test
    void aGoneProcessHasNullHostFiguresNotZeros() throws Exception {
        FakeGpuState.create().gpu(0, "NVIDIA A100", 40960)
                .process(0, COMPUTE, AgentScriptTest.NO_SUCH_PID, 1).writeTo(state);

        JsonNode process = probe().get("gpus").get(0).get("processes").get(0);

        for (String field : List.of("cpu_percent", "host_mem_percent", "rss_bytes", "elapsed_s", "state", "threads",
                "command", "command_truncated")) {
            assertTrue(process.get(field).isNull(), field + " in " + process);
        }
    }

    @Test
    void aResidentAgentMeasuresCpuSinceItsPreviousRequest() throws Exception {
        Process busy = start("sh", "-c", "while :; do :; done");
        Process idle = start("sleep", "300");
        FakeGpuState.create().gpu(0, "NVIDIA A100", 40960)
                .process(0, COMPUTE, busy.pid(), 1).process(0, COMPUTE, idle.pid(), 1).writeTo(state);
        try (LocalAgent.Resident resident = agent.serve()) {
            resident.sendRaw(AgentRequest.probe("~/.nvidb/jobs"));
            long ticks = cpuTicks(busy.pid());
            // A window in which the busy loop has certainly used a third of a second of CPU.
            Polling.until(LIMIT, () -> cpuTicks(busy.pid()) - ticks, used -> used >= 35, "CPU time to pass");

            JsonNode processes = JSON.readTree(resident.sendRaw(AgentRequest.probe("~/.nvidb/jobs")))
                    .get("gpus").get(0).get("processes");

            double busyPercent = processes.get(0).get("cpu_percent").asDouble();
            assertTrue(busyPercent > 10 && busyPercent <= 105, "one busy thread: " + busyPercent);
            assertTrue(processes.get(1).get("cpu_percent").asDouble() < 2, processes.get(1).toString());
        }
    }

    @Test
    void theNvidiaSmiFallbackDescribesProcessesTooAndHasNoPcie() throws Exception {
        Process sleeper = start("sleep", "300");
        FakeGpuState.create().initFailure(FakeGpuState.NVML_ERROR_DRIVER_NOT_LOADED)
                .gpu(0, "NVIDIA A100", 40960).used(0, 100).pcieLink(0, 4, 16)
                .process(0, COMPUTE, sleeper.pid(), 50).writeTo(state);

        JsonNode reply = probe();

        assertEquals("nvidia-smi", reply.get("source").asText());
        JsonNode gpu = reply.get("gpus").get(0);
        assertPcie(gpu.get("pcie"), null, null, null, null, null, null);
        JsonNode process = gpu.get("processes").get(0);
        assertEquals("S", process.get("state").asText());
        assertEquals(1, process.get("threads").asInt());
        assertTrue(process.get("rss_bytes").asLong() > 0);
        assertTrue(process.get("cpu_percent").isNumber());
    }

    @Test
    void theModelCarriesWhatTheAgentReported() throws Exception {
        Process sleeper = start("sleep", "300");
        Polling.until(LIMIT, () -> statState(sleeper.pid()), "S"::equals, "sleep to be asleep");
        FakeGpuState.create().gpu(0, "NVIDIA L40S", 46068).pcieLink(0, 4, 8).pcieMaxLink(0, 4, 16)
                .pcieThroughput(0, 5_000_000, 40).process(0, COMPUTE, sleeper.pid(), 300).writeTo(state);

        GpuSnapshot gpu = agent.send(AgentRequest.probe("~/.nvidb/jobs")).snapshot().gpus().get(0);

        assertEquals(new PcieSnapshot(4, 8, 4, 16, 5_000_000L, 40L), gpu.pcie());
        GpuProcess process = gpu.processes().get(0);
        assertEquals(Boolean.FALSE, process.commandTruncated());
        ProcessStats stats = process.stats();
        assertEquals("S", stats.state());
        assertEquals(1, stats.threads());
        assertEquals(vmRssBytes(sleeper.pid()), stats.rssBytes());
        assertTrue(stats.elapsedSeconds() >= 0 && stats.cpuPercent() >= 0 && stats.hostMemPercent() >= 0, stats.toString());
    }

    // --- helpers ---

    private JsonNode probe() throws IOException {
        return JSON.readTree(agent.sendRaw(AgentRequest.probe("~/.nvidb/jobs")));
    }

    private Process start(String... command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        started.add(process);
        return process;
    }

    private static void assertPcie(JsonNode pcie, Integer gen, Integer width, Integer maxGen, Integer maxWidth,
                                   Long rx, Long tx) {
        assertEquals(gen, integer(pcie, "link_gen"), pcie.toString());
        assertEquals(width, integer(pcie, "link_width"), pcie.toString());
        assertEquals(maxGen, integer(pcie, "max_link_gen"), pcie.toString());
        assertEquals(maxWidth, integer(pcie, "max_link_width"), pcie.toString());
        assertEquals(rx, whole(pcie, "rx_kb_s"), pcie.toString());
        assertEquals(tx, whole(pcie, "tx_kb_s"), pcie.toString());
    }

    private static Integer integer(JsonNode node, String field) {
        assertTrue(node.has(field), field + " missing from " + node);
        return node.get(field).isNull() ? null : node.get(field).asInt();
    }

    private static Long whole(JsonNode node, String field) {
        assertTrue(node.has(field), field + " missing from " + node);
        return node.get(field).isNull() ? null : node.get(field).asLong();
    }

    private static String[] statFields(long pid) {
        String stat = read(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    private static String statState(long pid) {
        return statFields(pid)[0];
    }

    /** utime + stime in clock ticks (fields 14 and 15 of /proc/PID/stat). */
    private static long cpuTicks(long pid) {
        String[] fields = statFields(pid);
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static String status(long pid, String key) {
        return read(Path.of("/proc", Long.toString(pid), "status")).lines()
                .filter(line -> line.startsWith(key + ":")).map(line -> line.substring(key.length() + 1).strip())
                .findFirst().orElseThrow();
    }

    /** VmRSS of /proc/PID/status: the same resident-page count as /proc/PID/stat's rss. */
    private static long vmRssBytes(long pid) {
        return Long.parseLong(status(pid, "VmRSS").replace(" kB", "")) * 1024;
    }

    private static long memTotalBytes() {
        return read(Path.of("/proc/meminfo")).lines().filter(line -> line.startsWith("MemTotal:"))
                .map(line -> Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024).findFirst().orElseThrow();
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String python() {
        return System.getProperty("nvidb.python", "/usr/bin/python3");
    }
}
