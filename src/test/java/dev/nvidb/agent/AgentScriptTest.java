package dev.nvidb.agent;

import static dev.nvidb.testing.FakeGpuState.ProcessKind.COMPUTE;
import static dev.nvidb.testing.FakeGpuState.ProcessKind.GRAPHICS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.FakeGpuState.Metric;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the real node agent as a local python3 subprocess, started exactly as the protocol
 * says (bootstrap {@code -c} line, byte-counted script on stdin), against the fake NVML
 * library and fake nvidia-smi, and checks its JSON replies.
 */
class AgentScriptTest {

    /** The bootstrap of docs/agent-protocol.md (fed a byte count without a digest here: nothing is kept). */
    static final String BOOTSTRAP = AgentScript.bootstrap();
    static final long NO_SUCH_PID = 5_000_000;  // above the kernel's largest pid_max
    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration LIMIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;
    Path state;
    Path stderr;

    @BeforeEach
    void setUp() {
        state = dir.resolve("gpus.state");
        stderr = dir.resolve("agent.stderr");
    }

    @Test
    void reportsScriptedGpusWithMemoryUtilisationAndProcesses() throws Exception {
        FakeGpuState.create().driver("550.54.14").cudaVersion(12040)
                .gpu(0, "NVIDIA H100 80GB HBM3", 81559).uuid(0, "GPU-aaaa").used(0, 1024)
                .reserved(0, 300).util(0, 7, 3).temperature(0, 41).power(0, 120_500, 700_000)
                .process(0, COMPUTE, NO_SUCH_PID, 512, "python3")
                .process(0, COMPUTE, NO_SUCH_PID + 1, 256)
                .gpu(1, "NVIDIA RTX A6000", 49140).pciBusId(1, "00000000:41:00.0").used(1, 40000)
                .util(1, 99, 60).process(1, GRAPHICS, NO_SUCH_PID + 2, 40000)
                .writeTo(state);

        JsonNode reply = once(FakeGpuState.libDir(), "{\"job_root\": \"" + dir + "\"}");

        assertEquals(1, reply.get("schema_version").asInt());
        assertEquals("nvml", reply.get("source").asText());
        assertTrue(reply.get("error").isNull());
        assertEquals("550.54.14", reply.get("driver_version").asText());
        assertEquals("12.550.54.14", reply.get("nvml_version").asText());
        assertEquals("12.4", reply.get("cuda_version").asText());
        JsonNode gpus = reply.get("gpus");
        assertEquals(2, gpus.size());
        JsonNode h100 = gpus.get(0);
        assertEquals(0, h100.get("index").asInt());
        assertEquals("GPU-aaaa", h100.get("uuid").asText());
        assertEquals("00000000:01:00.0", h100.get("pci_bus_id").asText());
        assertEquals("NVIDIA H100 80GB HBM3", h100.get("name").asText());
        assertEquals(81559, h100.get("mem_total_mb").asLong());
        assertEquals(1024 + 300, h100.get("mem_used_mb").asLong(), "used is all that is not free");
        assertEquals(300, h100.get("mem_reserved_mb").asLong());
        assertEquals(81559 - 1024 - 300, h100.get("mem_free_mb").asLong());
        assertEquals(7, h100.get("util_percent").asInt());
        assertEquals(3, h100.get("mem_util_percent").asInt());
        assertEquals(41, h100.get("temperature_c").asInt());
        assertEquals(120.5, h100.get("power_w").asDouble(), 1e-9);
        assertEquals(700.0, h100.get("power_limit_w").asDouble(), 1e-9);
        assertTrue(h100.get("error").isNull());
        assertEquals(List.of(NO_SUCH_PID, NO_SUCH_PID + 1), pids(h100));
        JsonNode gone = h100.get("processes").get(0);
        assertEquals("compute", gone.get("type").asText());
        assertEquals(512, gone.get("mem_mb").asLong());
        assertEquals("python3", gone.get("name").asText(), "NVML's name when /proc has none");
        assertTrue(gone.get("user").isNull());
        assertTrue(gone.get("command").isNull());
        assertTrue(h100.get("processes").get(1).get("name").isNull());

        JsonNode a6000 = gpus.get(1);
        assertEquals("00000000:41:00.0", a6000.get("pci_bus_id").asText());
        assertEquals(99, a6000.get("util_percent").asInt());
        assertTrue(a6000.get("temperature_c").isNull(), "unsupported is null, not 0");
        assertTrue(a6000.get("power_w").isNull());
        JsonNode graphics = a6000.get("processes").get(0);
        assertEquals(NO_SUCH_PID + 2, graphics.get("pid").asLong());
        assertEquals("graphics", graphics.get("type").asText());
        assertEquals(40000, graphics.get("mem_mb").asLong());

        JsonNode node = reply.get("node");
        assertEquals(Files.readString(Path.of("/proc/sys/kernel/hostname")).strip(),
                node.get("hostname").asText());
        assertEquals(Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip(),
                node.get("boot_id").asText());
        assertTrue(Math.abs(node.get("time").asDouble() * 1000 - System.currentTimeMillis()) < 60_000);
        assertEquals(3, node.get("load").size());
        assertEquals(Runtime.getRuntime().availableProcessors(), node.get("cpu_count").asInt());
        assertEquals(dir.toString(), node.get("disk_path").asText());
        assertTrue(node.get("disk_free_mb").asLong() > 0);
    }

    @Test
    void namesTheOwnerAndCommandOfARealProcess() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "300").start();
        try {
            FakeGpuState.create().gpu(0, "NVIDIA A100", 40960).used(0, 2048)
                    .process(0, COMPUTE, sleeper.pid(), 2000).writeTo(state);

            JsonNode process = once(FakeGpuState.libDir(), "{}").get("gpus").get(0)
                    .get("processes").get(0);

            assertEquals(sleeper.pid(), process.get("pid").asLong());
            assertEquals(System.getProperty("user.name"), process.get("user").asText());
            assertEquals("sleep", process.get("name").asText());
            assertEquals("sleep 300", process.get("command").asText());
            assertEquals(2000, process.get("mem_mb").asLong());
        } finally {
            sleeper.destroyForcibly().waitFor();
        }
    }

    @Test
    void blindProcessHasNullMemoryNotZero() throws Exception {
        FakeGpuState.create().gpu(0, "NVIDIA GeForce RTX 4090", 24564).used(0, 5000)
                .blindProcess(0, NO_SUCH_PID).process(0, COMPUTE, NO_SUCH_PID + 1, 0)
                .writeTo(state);

        JsonNode processes = once(FakeGpuState.libDir(), "{}").get("gpus").get(0).get("processes");

        assertTrue(processes.get(0).get("mem_mb").isNull());
        assertEquals(0, processes.get(1).get("mem_mb").asLong());
        assertTrue(processes.get(1).get("mem_mb").isNumber());
    }

    @Test
    void processInComputeAndGraphicsListsIsReportedOnce() throws Exception {
        FakeGpuState.create().gpu(0, "NVIDIA RTX 6000 Ada Generation", 49140).used(0, 900)
                .process(0, COMPUTE, NO_SUCH_PID, 700).process(0, GRAPHICS, NO_SUCH_PID, 700)
                .process(0, GRAPHICS, NO_SUCH_PID + 1, 100).writeTo(state);

        JsonNode processes = once(FakeGpuState.libDir(), "{}").get("gpus").get(0).get("processes");

        assertEquals(2, processes.size());
        assertEquals(NO_SUCH_PID, processes.get(0).get("pid").asLong());
        assertEquals("compute+graphics", processes.get(0).get("type").asText());
        assertEquals(700, processes.get(0).get("mem_mb").asLong());
        assertEquals("graphics", processes.get(1).get("type").asText());
    }

    @Test
    void readsThirtyTwoByteV3EntriesOfR535Drivers() throws Exception {
        FakeGpuState.create().v3Stride(32).gpu(0, "NVIDIA L40S", 46068).used(0, 7000)
                .process(0, COMPUTE, NO_SUCH_PID, 1000).blindProcess(0, NO_SUCH_PID + 7)
                .process(0, COMPUTE, NO_SUCH_PID + 3, 3000).process(0, GRAPHICS, NO_SUCH_PID + 9, 5)
                .writeTo(state);

        JsonNode processes = once(FakeGpuState.libDir(), "{}").get("gpus").get(0).get("processes");

        assertEquals(List.of(NO_SUCH_PID, NO_SUCH_PID + 7, NO_SUCH_PID + 3, NO_SUCH_PID + 9),
                pids(processes));
        assertEquals(1000, processes.get(0).get("mem_mb").asLong());
        assertTrue(processes.get(1).get("mem_mb").isNull());
        assertEquals(3000, processes.get(2).get("mem_mb").asLong());
        assertEquals(5, processes.get(3).get("mem_mb").asLong());
    }

    @Test
    void listsMoreProcessesThanTheFirstBufferHolds() throws Exception {
        for (int stride : new int[] {24, 32}) {
            FakeGpuState gpus = FakeGpuState.create().v3Stride(stride).gpu(0, "NVIDIA H100", 81559);
            IntStream.range(0, 70).forEach(i -> gpus.process(0, COMPUTE, NO_SUCH_PID + i, i));
            gpus.writeTo(state);

            JsonNode processes = once(FakeGpuState.libDir(), "{}").get("gpus").get(0).get("processes");

            assertEquals(70, processes.size(), "stride " + stride);
            for (int i = 0; i < 70; i++) {
                assertEquals(NO_SUCH_PID + i, processes.get(i).get("pid").asLong());
                assertEquals(i, processes.get(i).get("mem_mb").asLong());
            }
        }
    }

    @Test
    void olderDriverWithoutV2MemoryOrV3ProcessesStillReportsBoth() throws Exception {
        FakeGpuState.create().gpu(0, "Tesla V100-SXM2-16GB", 16384).used(0, 1000).reserved(0, 300)
                .process(0, COMPUTE, NO_SUCH_PID, 600).process(0, GRAPHICS, NO_SUCH_PID + 1, 50)
                .process(0, COMPUTE, NO_SUCH_PID + 2, 70).writeTo(state);

        for (Path lib : List.of(FakeGpuState.oldLibDir(), FakeGpuState.ancientLibDir())) {
            JsonNode gpu = once(lib, "{}").get("gpus").get(0);

            assertTrue(gpu.get("error").isNull(), lib.toString());
            assertEquals(16384, gpu.get("mem_total_mb").asLong());
            assertEquals(1300, gpu.get("mem_used_mb").asLong(), "v1 counts reserved as used");
            assertEquals(16384 - 1300, gpu.get("mem_free_mb").asLong());
            assertTrue(gpu.get("mem_reserved_mb").isNull(), "no v2 struct, no reserved figure");
            assertEquals(List.of(NO_SUCH_PID, NO_SUCH_PID + 2, NO_SUCH_PID + 1), pids(gpu));
            assertEquals(600, gpu.get("processes").get(0).get("mem_mb").asLong());
            assertEquals(70, gpu.get("processes").get(1).get("mem_mb").asLong());
            assertEquals(50, gpu.get("processes").get(2).get("mem_mb").asLong());
        }
    }

    @Test
    void lostGpuReportsItsErrorAndTheOthersStayIntact() throws Exception {
        FakeGpuState.create()
                .gpu(0, "NVIDIA H100", 81559).used(0, 10).process(0, COMPUTE, NO_SUCH_PID, 10)
                .gpu(1, "NVIDIA H100", 81559).used(1, 20).process(1, COMPUTE, NO_SUCH_PID + 1, 20).lost(1)
                .gpu(2, "NVIDIA H100", 81559).used(2, 30).process(2, COMPUTE, NO_SUCH_PID + 2, 30)
                .writeTo(state);

        JsonNode reply = once(FakeGpuState.libDir(), "{}");

        assertEquals("nvml", reply.get("source").asText());
        assertTrue(reply.get("error").isNull());
        JsonNode gpus = reply.get("gpus");
        assertEquals(3, gpus.size());
        JsonNode lost = gpus.get(1);
        assertEquals(1, lost.get("index").asInt());
        assertEquals("GPU is lost", lost.get("error").asText());
        assertTrue(lost.get("mem_used_mb").isNull());
        assertTrue(lost.get("mem_total_mb").isNull());
        assertEquals(0, lost.get("processes").size());
        for (int index : new int[] {0, 2}) {
            JsonNode gpu = gpus.get(index);
            assertTrue(gpu.get("error").isNull());
            assertEquals(10 * (index + 1), gpu.get("mem_used_mb").asLong());
            assertEquals(List.of(NO_SUCH_PID + index), pids(gpu));
        }
    }

    @Test
    void gpuWhoseMemoryCannotBeReadIsFailedNotEmpty() throws Exception {
        FakeGpuState.create().gpu(0, "NVIDIA H100", 81559).used(0, 5)
                .gpuError(0, FakeGpuState.NVML_ERROR_NO_PERMISSION)
                .gpu(1, "NVIDIA H100", 81559).unsupported(1, Metric.TEMPERATURE).writeTo(state);

        JsonNode gpus = once(FakeGpuState.libDir(), "{}").get("gpus");

        assertEquals("Insufficient Permissions", gpus.get(0).get("error").asText());
        assertTrue(gpus.get(0).get("mem_total_mb").isNull());
        assertTrue(gpus.get(1).get("error").isNull(), "an unsupported metric is no GPU error");
        assertTrue(gpus.get(1).get("temperature_c").isNull());
        assertEquals(81559, gpus.get(1).get("mem_total_mb").asLong());
    }

    @Test
    void initFailureFallsBackToNvidiaSmi() throws Exception {
        FakeGpuState.create().initFailure(FakeGpuState.NVML_ERROR_DRIVER_NOT_LOADED).driver("535.183.01")
                .gpu(0, "NVIDIA A100-SXM4-80GB", 81920).used(0, 4000).util(0, 55, 20)
                .temperature(0, 60).power(0, 250_000, 400_000)
                .process(0, COMPUTE, NO_SUCH_PID, 3000, "/usr/bin/python3")
                .blindProcess(0, NO_SUCH_PID + 1).process(0, GRAPHICS, NO_SUCH_PID + 2, 5)
                .gpu(1, "NVIDIA A100-SXM4-80GB", 81920).unsupported(1, Metric.UTIL)
                .writeTo(state);

        JsonNode reply = once(FakeGpuState.libDir(), "{}");

        assertEquals("nvidia-smi", reply.get("source").asText());
        assertEquals("NVML init failed: Driver Not Loaded", reply.get("error").asText());
        assertEquals("535.183.01", reply.get("driver_version").asText());
        JsonNode gpus = reply.get("gpus");
        assertEquals(2, gpus.size());
        JsonNode busy = gpus.get(0);
        assertEquals("GPU-00000000-0000-0000-0000-000000000000", busy.get("uuid").asText());
        assertEquals("NVIDIA A100-SXM4-80GB", busy.get("name").asText());
        assertEquals(81920, busy.get("mem_total_mb").asLong());
        assertEquals(4000, busy.get("mem_used_mb").asLong());
        assertEquals(77920, busy.get("mem_free_mb").asLong());
        assertEquals(55, busy.get("util_percent").asInt());
        assertEquals(60, busy.get("temperature_c").asInt());
        assertEquals(250.0, busy.get("power_w").asDouble(), 1e-9);
        assertEquals(List.of(NO_SUCH_PID, NO_SUCH_PID + 1), pids(busy), "compute apps only");
        assertEquals(3000, busy.get("processes").get(0).get("mem_mb").asLong());
        assertEquals("/usr/bin/python3", busy.get("processes").get(0).get("name").asText());
        assertTrue(busy.get("processes").get(1).get("mem_mb").isNull());
        JsonNode idle = gpus.get(1);
        assertTrue(idle.get("util_percent").isNull(), "[Not Supported]");
        assertTrue(idle.get("temperature_c").isNull(), "[N/A]");
        assertTrue(idle.get("power_limit_w").isNull());
        assertEquals(0, idle.get("mem_used_mb").asLong());
    }

    @Test
    void initFailureWithFailingNvidiaSmiReportsNoSource() throws Exception {
        FakeGpuState.create().initFailure(FakeGpuState.NVML_ERROR_LIB_RM_VERSION_MISMATCH)
                .gpu(0, "NVIDIA H100", 81559)
                .smiFails("Failed to initialize NVML: Driver/library version mismatch")
                .writeTo(state);

        JsonNode reply = once(FakeGpuState.libDir(), "{}");

        assertEquals("none", reply.get("source").asText());
        assertEquals(0, reply.get("gpus").size());
        assertEquals("NVML init failed: RM has detected an NVML/RM version mismatch.; "
                + "nvidia-smi failed (exit 9): Failed to initialize NVML: Driver/library version mismatch",
                reply.get("error").asText());
        assertFalse(reply.get("node").isNull());
    }

    @Test
    void initFailureWithoutNvidiaSmiReportsNoSource() throws Exception {
        FakeGpuState.create().initFailure(FakeGpuState.NVML_ERROR_DRIVER_NOT_LOADED)
                .gpu(0, "NVIDIA H100", 81559).writeTo(state);

        JsonNode reply = parse(run(FakeGpuState.libDir(), emptyPath(), "{}", List.of(), "--once"));

        assertEquals("none", reply.get("source").asText());
        assertEquals("NVML init failed: Driver Not Loaded; nvidia-smi is not on PATH",
                reply.get("error").asText());
    }

    @Test
    void missingDriverLibraryIsNamedInTheError() throws Exception {
        // Assumes the test host has no real NVIDIA driver (DESIGN.md §7: tests run without GPUs).
        Path noLibrary = Files.createDirectory(dir.resolve("no-lib"));

        JsonNode reply = parse(run(noLibrary, emptyPath(), "{}", List.of(), "--once"));

        assertEquals("none", reply.get("source").asText());
        String error = reply.get("error").asText();
        assertTrue(error.startsWith("NVIDIA driver not found: cannot load libnvidia-ml.so.1 ("), error);
        assertTrue(error.endsWith(") and nvidia-smi is not on PATH"), error);
    }

    @Test
    void serveAnswersEachRequestAndSeesStateEditsWithNvmlKeptOpen() throws Exception {
        FakeGpuState.create().gpu(0, "NVIDIA H100", 81559).used(0, 1000).writeTo(state);
        Process agent = start(FakeGpuState.libDir(), pathWithFakeSmi(), List.of(), "--serve");
        OutputStream in = agent.getOutputStream();
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(agent.getInputStream(), StandardCharsets.UTF_8))) {
            sendScript(in);
            JsonNode first = request(in, out, "{}");
            assertEquals(1000, first.get("gpus").get(0).get("mem_used_mb").asLong());
            assertEquals(0, first.get("gpus").get(0).get("processes").size());

            // An init failure in the new state proves NVML is not initialised again.
            FakeGpuState.create().initFailure(FakeGpuState.NVML_ERROR_DRIVER_NOT_LOADED)
                    .gpu(0, "NVIDIA H100", 81559).used(0, 2000)
                    .process(0, COMPUTE, NO_SUCH_PID, 1000).writeTo(state);
            JsonNode second = request(in, out, "{\"job_root\": \"" + dir + "\"}");

            assertEquals("nvml", second.get("source").asText());
            assertEquals(2000, second.get("gpus").get(0).get("mem_used_mb").asLong());
            assertEquals(List.of(NO_SUCH_PID), pids(second.get("gpus").get(0)));
            assertEquals(dir.toString(), second.get("node").get("disk_path").asText());
            in.close();  // end of input ends the agent
            assertNull(assertTimeoutPreemptively(LIMIT, out::readLine), "nothing after the replies");
            assertTrue(agent.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS));
            assertEquals(0, agent.exitValue(), Files.readString(stderr));
        } finally {
            agent.destroyForcibly();
        }
    }

    @Test
    void serveAnswersAnInvalidRequestLineAsAnEmptyRequest() throws Exception {
        FakeGpuState.create().gpu(0, "NVIDIA H100", 81559).used(0, 3).writeTo(state);
        Process agent = start(FakeGpuState.libDir(), pathWithFakeSmi(), List.of(), "--serve");
        try (OutputStream in = agent.getOutputStream();
                BufferedReader out = new BufferedReader(
                        new InputStreamReader(agent.getInputStream(), StandardCharsets.UTF_8))) {
            sendScript(in);

            JsonNode garbage = request(in, out, "this is not json");
            JsonNode wrongType = request(in, out, "{\"job_root\": 42}");

            assertEquals(3, garbage.get("gpus").get(0).get("mem_used_mb").asLong());
            assertTrue(wrongType.get("error").isNull());
            assertTrue(wrongType.get("node").get("disk_path").asText().endsWith("/.nvidb/jobs"));
        } finally {
            agent.destroyForcibly();
        }
    }

    @Test
    void onceAnswersAnEmptyRequestAtEndOfInput() throws Exception {
        FakeGpuState.create().gpu(0, "NVIDIA H100", 81559).writeTo(state);

        String stdout = run(FakeGpuState.libDir(), pathWithFakeSmi(), null, List.of(), "--once");

        assertEquals(1, stdout.lines().count(), stdout);
        JsonNode reply = JSON.readTree(stdout);
        assertEquals(1, reply.get("gpus").size());
        assertTrue(reply.get("node").get("disk_path").asText().endsWith("/.nvidb/jobs"));
    }

    @Test
    void runsUnderIsolatedPython() throws Exception {
        FakeGpuState.create().gpu(0, "NVIDIA H100", 81559).used(0, 77).writeTo(state);

        JsonNode reply = parse(run(FakeGpuState.libDir(), pathWithFakeSmi(), "{}", List.of("-I"), "--once"));

        assertEquals("nvml", reply.get("source").asText());
        assertEquals(77, reply.get("gpus").get(0).get("mem_used_mb").asLong());
    }

    @Test
    void runsDirectlyAsAScriptForDebugging() throws Exception {
        FakeGpuState.create().gpu(0, "NVIDIA H100", 81559).used(0, 88).writeTo(state);
        ProcessBuilder builder = new ProcessBuilder(python(), agentSource().toString(), "--once");
        environment(builder, FakeGpuState.libDir(), pathWithFakeSmi());
        Process agent = builder.start();
        agent.getOutputStream().write("{}\n".getBytes(StandardCharsets.UTF_8));
        agent.getOutputStream().close();

        JsonNode reply = parse(finish(agent));

        assertEquals(88, reply.get("gpus").get(0).get("mem_used_mb").asLong());
    }

    @Test
    void fakeNvidiaSmiPrintsCsvLikeTheRealTool() throws Exception {
        FakeGpuState.create().driver("550.54.14")
                .gpu(0, "NVIDIA H100 80GB HBM3", 81559).used(0, 1024).util(0, 7, 3).temperature(0, 41)
                .power(0, 120_500, 700_000).process(0, COMPUTE, NO_SUCH_PID, 512, "python3")
                .blindProcess(0, NO_SUCH_PID + 1)
                .gpu(1, "NVIDIA H100 80GB HBM3", 81559).unsupported(1, Metric.UTIL)
                .writeTo(state);
        String smi = FakeGpuState.binDir().resolve("nvidia-smi").toString();

        String gpus = capture(smi, "--query-gpu=index,uuid,pci.bus_id,name,memory.total,memory.used,"
                + "memory.free,utilization.gpu,utilization.memory,temperature.gpu,power.draw,power.limit,"
                + "driver_version", "--format=csv,noheader,nounits");
        String apps = capture(smi, "--query-compute-apps=gpu_uuid,pid,process_name,used_memory",
                "--format=csv,noheader,nounits");

        assertEquals("0, GPU-00000000-0000-0000-0000-000000000000, 00000000:01:00.0, "
                + "NVIDIA H100 80GB HBM3, 81559, 1024, 80535, 7, 3, 41, 120.50, 700.00, 550.54.14\n"
                + "1, GPU-00000000-0000-0000-0000-000000000001, 00000000:02:00.0, "
                + "NVIDIA H100 80GB HBM3, 81559, 0, 81559, [Not Supported], [N/A], [N/A], [N/A], [N/A], "
                + "550.54.14\n", gpus);
        assertEquals("GPU-00000000-0000-0000-0000-000000000000, 5000000, python3, 512\n"
                + "GPU-00000000-0000-0000-0000-000000000000, 5000001, [N/A], [N/A]\n", apps);
    }

    // --- running the agent ---

    private JsonNode once(Path libDir, String request) throws Exception {
        return parse(run(libDir, pathWithFakeSmi(), request, List.of(), "--once"));
    }

    private JsonNode parse(String stdout) throws IOException {
        assertEquals(1, stdout.lines().count(), "one reply line and nothing else:\n" + stdout);
        return JSON.readTree(stdout);
    }

    /** Runs the agent once; {@code request} null means end of input right after the script. */
    private String run(Path libDir, String path, String request, List<String> pythonFlags, String mode)
            throws Exception {
        Process agent = start(libDir, path, pythonFlags, mode);
        try (OutputStream in = agent.getOutputStream()) {
            sendScript(in);
            if (request != null) {
                in.write((request + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        return finish(agent);
    }

    private String finish(Process agent) throws Exception {
        return assertTimeoutPreemptively(LIMIT, () -> {
            String stdout = new String(agent.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = agent.waitFor();
            assertEquals(0, exit, "agent failed: " + Files.readString(stderr));
            return stdout;
        }, () -> {
            agent.destroyForcibly();
            return "agent did not answer";
        });
    }

    private Process start(Path libDir, String path, List<String> pythonFlags, String mode)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(python()));
        command.addAll(pythonFlags);
        command.addAll(List.of("-c", BOOTSTRAP, mode));
        ProcessBuilder builder = new ProcessBuilder(command);
        environment(builder, libDir, path);
        return builder.start();
    }

    private void environment(ProcessBuilder builder, Path libDir, String path) {
        Map<String, String> env = builder.environment();
        env.putAll(FakeGpuState.environment(state));
        env.put("LD_LIBRARY_PATH", libDir.toString());
        env.put("PATH", path);
        builder.redirectError(stderr.toFile());
    }

    private static void sendScript(OutputStream in) throws IOException {
        byte[] script = Files.readAllBytes(agentSource());
        in.write((script.length + "\n").getBytes(StandardCharsets.US_ASCII));
        in.write(script);
        in.flush();
    }

    private static JsonNode request(OutputStream in, BufferedReader out, String request) {
        return assertTimeoutPreemptively(LIMIT, () -> {
            in.write((request + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            String line = out.readLine();
            if (line == null) {
                fail("agent closed its output");
            }
            return JSON.readTree(line);
        });
    }

    private String capture(String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command);
        environment(builder, FakeGpuState.libDir(), pathWithFakeSmi());
        return finish(builder.start());
    }

    private static List<Long> pids(JsonNode gpuOrProcesses) {
        JsonNode processes = gpuOrProcesses.has("processes")
                ? gpuOrProcesses.get("processes") : gpuOrProcesses;
        return StreamSupport.stream(processes.spliterator(), false)
                .map(process -> process.get("pid").asLong()).toList();
    }

    private static String pathWithFakeSmi() {
        return FakeGpuState.binDir() + ":/usr/bin:/bin";
    }

    /** A PATH with no nvidia-smi on it (python3 is started by absolute path). */
    private String emptyPath() throws IOException {
        return Files.createDirectories(dir.resolve("empty-bin")).toString();
    }

    private static Path agentSource() {
        return AgentSource.path();
    }

    /**
     * The python3 a node runs: {@code -Dnvidb.python}, else the system's {@code /usr/bin/python3}
     * (not a version-manager shim, which would need bash and a PATH), else the first on PATH.
     */
    private static String python() {
        String configured = System.getProperty("nvidb.python");
        if (configured != null) {
            return configured;
        }
        if (Files.isExecutable(Path.of("/usr/bin/python3"))) {
            return "/usr/bin/python3";
        }
        for (String entry : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(entry, "python3");
            if (!entry.isEmpty() && Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return "python3";
    }
}
