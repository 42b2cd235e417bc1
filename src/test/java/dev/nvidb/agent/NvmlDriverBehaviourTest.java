package dev.nvidb.agent;

import static dev.nvidb.agent.AgentScriptTest.NO_SUCH_PID;
import static dev.nvidb.testing.FakeGpuState.ProcessKind.COMPUTE;
import static dev.nvidb.testing.FakeGpuState.ProcessKind.GRAPHICS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.FakeGpuState.Metric;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent driven through what a real driver does and the fake NVML did not: a process list
 * that grows between the sizing call and the next, a MIG-enabled GPU that refuses its
 * aggregate process list, a v2 memory call that refuses the version word, a deprecated call,
 * memory the driver reserves, and nvidia-smi's bracketed error texts (docs/agent-protocol.md,
 * "NVML audit against nvml.h").
 */
class NvmlDriverBehaviourTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private LocalAgent agent;

    @BeforeEach
    void startAgent() throws IOException {
        agent = LocalAgent.in(dir);
    }

    @Test
    void aProcessListThatKeepsGrowingBetweenCallsIsStillReadWhole() throws Exception {
        // 40 processes, then 20 more at each call: 40 > 32 (the first buffer), 60 on the second call.
        FakeGpuState gpus = FakeGpuState.create().processGrowth(20).gpu(0, "NVIDIA H100", 81559);
        IntStream.range(0, 40).forEach(i -> gpus.process(0, COMPUTE, NO_SUCH_PID + i, 2));
        gpus.writeTo(agent.state());

        JsonNode gpu = probe().get("gpus").get(0);

        assertTrue(gpu.get("error").isNull(), gpu.toString());
        assertEquals(60, gpu.get("processes").size());
        assertEquals(NO_SUCH_PID, gpu.get("processes").get(0).get("pid").asLong());
        assertEquals(7_000_019, gpu.get("processes").get(59).get("pid").asLong());
    }

    @Test
    void aMigGpuReportsTheProcessesOfItsMigDevices() throws Exception {
        FakeGpuState.create()
                .gpu(0, "NVIDIA A100-SXM4-80GB", 81920).used(0, 3100).migDevices(0, 3)
                .migProcess(0, 0, COMPUTE, NO_SUCH_PID, 1000).migProcess(0, 2, COMPUTE, NO_SUCH_PID + 1, 2000)
                .migProcess(0, 1, GRAPHICS, NO_SUCH_PID + 2, 100)
                .gpu(1, "NVIDIA A100-SXM4-80GB", 81920).used(1, 500).process(1, COMPUTE, NO_SUCH_PID + 3, 500)
                .writeTo(agent.state());

        JsonNode gpus = probe().get("gpus");

        JsonNode mig = gpus.get(0);
        assertTrue(mig.get("error").isNull(), mig.toString());
        assertEquals(3100, mig.get("mem_used_mb").asLong());
        assertEquals(List.of(NO_SUCH_PID, NO_SUCH_PID + 1, NO_SUCH_PID + 2), pids(mig));
        assertEquals(List.of(1000L, 2000L, 100L), memory(mig));
        assertEquals(List.of(NO_SUCH_PID + 3), pids(gpus.get(1)));
    }

    @Test
    void aDriverRefusingTheV2VersionWordIsReadThroughV1() throws Exception {
        FakeGpuState.create().memoryV2Mismatch().gpu(0, "NVIDIA L40S", 46068).used(0, 1000).reserved(0, 300)
                .writeTo(agent.state());

        JsonNode gpu = probe().get("gpus").get(0);

        assertTrue(gpu.get("error").isNull(), gpu.toString());
        assertTrue(gpu.get("mem_reserved_mb").isNull(), "v1 has no reserved figure");
        assertEquals(1300, gpu.get("mem_used_mb").asLong());
        assertEquals(46068 - 1300, gpu.get("mem_free_mb").asLong());
    }

    @Test
    void usedMemoryIncludesWhatTheDriverReservesFromNvmlAndFromNvidiaSmi() throws Exception {
        FakeGpuState gpus = FakeGpuState.create().gpu(0, "NVIDIA H100 80GB HBM3", 81559).used(0, 4).reserved(0, 585);
        gpus.writeTo(agent.state());
        JsonNode nvml = probe();
        gpus.initFailure(FakeGpuState.NVML_ERROR_DRIVER_NOT_LOADED).writeTo(agent.state());
        JsonNode smi = probe();

        assertEquals("nvml", nvml.get("source").asText());
        assertEquals("nvidia-smi", smi.get("source").asText());
        for (JsonNode gpu : List.of(nvml.get("gpus").get(0), smi.get("gpus").get(0))) {
            assertEquals(589, gpu.get("mem_used_mb").asLong(), gpu.toString());
            assertEquals(81559 - 589, gpu.get("mem_free_mb").asLong());
        }
        assertEquals(585, nvml.get("gpus").get(0).get("mem_reserved_mb").asLong());
    }

    @Test
    void aDeprecatedCallLeavesItsFieldNullAndTheGpuHealthy() throws Exception {
        FakeGpuState.create().gpu(0, "NVIDIA H100", 81559).used(0, 10).power(0, 100_000, 700_000)
                .metricError(0, Metric.TEMPERATURE, FakeGpuState.NVML_ERROR_DEPRECATED).writeTo(agent.state());

        JsonNode gpu = probe().get("gpus").get(0);

        assertTrue(gpu.get("error").isNull(), gpu.toString());
        assertTrue(gpu.get("temperature_c").isNull());
        assertEquals(100.0, gpu.get("power_w").asDouble(), 1e-9);
    }

    @Test
    void nvidiaSmiErrorTextsInBracketsAreNull() throws Exception {
        FakeGpuState.create().initFailure(FakeGpuState.NVML_ERROR_DRIVER_NOT_LOADED)
                .gpu(0, "NVIDIA GeForce RTX 4090", 24564).used(0, 700).temperature(0, 50).power(0, 60_000, 450_000)
                .metricError(0, Metric.POWER, FakeGpuState.NVML_ERROR_NO_PERMISSION)
                .metricError(0, Metric.UTIL, FakeGpuState.NVML_ERROR_UNKNOWN).writeTo(agent.state());

        String csv = smi("--query-gpu=power.draw,utilization.gpu,temperature.gpu", "--format=csv,noheader");
        JsonNode gpu = probe().get("gpus").get(0);

        assertEquals("[Insufficient Permissions], [Unknown Error], 50\n", csv);
        assertTrue(gpu.get("error").isNull(), gpu.toString());
        assertTrue(gpu.get("power_w").isNull());
        assertTrue(gpu.get("util_percent").isNull());
        assertEquals(50, gpu.get("temperature_c").asInt());
        assertEquals(450.0, gpu.get("power_limit_w").asDouble(), 1e-9);
    }

    private JsonNode probe() throws IOException {
        return JSON.readTree(agent.sendRaw("{\"job_root\": \"" + dir + "\"}"));
    }

    private String smi(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(FakeGpuState.binDir().resolve("nvidia-smi").toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(FakeGpuState.environment(agent.state()));
        Process smi = builder.start();
        String out = new String(smi.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(smi.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, smi.exitValue(), out);
        return out;
    }

    private static List<Long> pids(JsonNode gpu) {
        return StreamSupport.stream(gpu.get("processes").spliterator(), false)
                .map(process -> process.get("pid").asLong()).toList();
    }

    private static List<Long> memory(JsonNode gpu) {
        return StreamSupport.stream(gpu.get("processes").spliterator(), false)
                .map(process -> process.get("mem_mb").asLong()).toList();
    }
}
