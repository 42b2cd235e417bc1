package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.testing.FakeGpuState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent's ctypes structures and NVML constants, and the fake NVML's C structs, against
 * nvml.h as NVIDIA ships it (NVIDIA/go-nvml gen/nvml/nvml.h, NVML 12.2.140; the 32-byte process
 * entry from cuda-nvml-dev 12.2.81). Sizes and offsets are those of x86-64 and aarch64 Linux.
 * The audit these numbers come from is in docs/agent-protocol.md, "NVML audit against nvml.h".
 */
class NvmlLayoutTest {

    /** "Struct SIZE" and "Struct.field OFFSET", as nvml.h lays them out; the names are the agent's. */
    static final Map<String, Long> NVML_H = new LinkedHashMap<>();
    /** Constants the agent copies from nvml.h. */
    static final Map<String, Long> NVML_H_CONSTANTS = new LinkedHashMap<>();

    static {
        layout("Memory", 24, "total", 0, "free", 8, "used", 16);                          // nvmlMemory_t
        layout("MemoryV2", 40, "version", 0, "total", 8, "reserved", 16, "free", 24, "used", 32);  // nvmlMemory_v2_t
        layout("Utilization", 8, "gpu", 0, "memory", 4);                                  // nvmlUtilization_t
        layout("PciInfo", 68, "busIdLegacy", 0, "domain", 16, "bus", 20, "device", 24,     // nvmlPciInfo_t
                "pciDeviceId", 28, "pciSubSystemId", 32, "busId", 36);
        layout("ProcessInfoV1", 16, "pid", 0, "usedGpuMemory", 8);                        // nvmlProcessInfo_v1_t
        layout("ProcessInfoV2", 24, "pid", 0, "usedGpuMemory", 8, "gpuInstanceId", 16,    // nvmlProcessInfo_v2_t
                "computeInstanceId", 20);
        layout("ProcessDetailV1", 32, "pid", 0, "usedGpuMemory", 8, "gpuInstanceId", 16, // nvmlProcessDetail_v1_t
                "computeInstanceId", 20, "usedGpuCcProtectedMemory", 24);
        // NVML_STRUCT_VERSION(Memory, 2) = sizeof(nvmlMemory_v2_t) | 2 << 24
        NVML_H.put("nvmlMemory_v2", 40L | 2L << 24);

        NVML_H_CONSTANTS.put("NOT_AVAILABLE", -1L);  // NVML_VALUE_NOT_AVAILABLE (-1) as unsigned long long
        NVML_H_CONSTANTS.put("NVML_SUCCESS", 0L);
        NVML_H_CONSTANTS.put("NVML_ERROR_NO_PERMISSION", 4L);
        NVML_H_CONSTANTS.put("NVML_ERROR_NOT_FOUND", 6L);
        NVML_H_CONSTANTS.put("NVML_ERROR_INSUFFICIENT_SIZE", 7L);
        NVML_H_CONSTANTS.put("NVML_ERROR_ARGUMENT_VERSION_MISMATCH", 25L);
        NVML_H_CONSTANTS.put("NVML_PCIE_UTIL_TX_BYTES", 0L);
        NVML_H_CONSTANTS.put("NVML_PCIE_UTIL_RX_BYTES", 1L);
        NVML_H_CONSTANTS.put("NVML_DEVICE_MIG_ENABLE", 1L);
    }

    static Map<String, Long> agent;
    static Map<String, Long> fake;

    @BeforeAll
    static void readLayouts() throws Exception {
        agent = parse(run(List.of(System.getProperty("nvidb.python", "/usr/bin/python3"), "-S", "-c", AGENT_LAYOUT,
                AgentSource.path().toString())));
        fake = parse(run(List.of(FakeGpuState.fakeNvmlDir().resolve("layout/nvml-layout").toString())));
    }

    static Stream<String> structs() {
        return NVML_H.keySet().stream().filter(key -> !key.contains(".") && !key.startsWith("nvml"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("structs")
    void agentStructHasTheHeadersFieldsSizeAndOffsets(String struct) {
        assertEquals(of(NVML_H, struct), of(agent, struct));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("structs")
    void fakeNvmlStructHasTheHeadersFieldsSizeAndOffsets(String struct) {
        assertEquals(of(NVML_H, struct), of(fake, struct));
    }

    @Test
    void memoryV2VersionWordIsTheHeadersStructVersion() {
        assertEquals(0x02000028L, NVML_H.get("nvmlMemory_v2"));
        assertEquals(NVML_H.get("nvmlMemory_v2"), agent.get("nvmlMemory_v2"));
        assertEquals(NVML_H.get("nvmlMemory_v2"), fake.get("nvmlMemory_v2"));
    }

    @Test
    void agentConstantsAreTheHeaders() {
        NVML_H_CONSTANTS.forEach((name, value) -> assertEquals(value, agent.get(name), name));
    }

    @Test
    void onlyNotSupportedNoPermissionNotFoundFunctionNotFoundAndDeprecatedLeaveAGpuHealthy() {
        // nvmlReturn_t: 3 NOT_SUPPORTED, 4 NO_PERMISSION, 6 NOT_FOUND, 13 FUNCTION_NOT_FOUND, 26 DEPRECATED.
        // GPU_IS_LOST (15), UNKNOWN (999) and the rest fail the GPU: its state is then unknown.
        assertEquals(List.of(3L, 4L, 6L, 13L, 26L), agent.entrySet().stream()
                .filter(entry -> entry.getKey().startsWith("FIELD_ONLY_ERRORS.")).map(Map.Entry::getValue).toList());
    }

    private static void layout(String struct, long size, Object... fieldOffsets) {
        NVML_H.put(struct, size);
        for (int i = 0; i < fieldOffsets.length; i += 2) {
            NVML_H.put(struct + "." + fieldOffsets[i], ((Integer) fieldOffsets[i + 1]).longValue());
        }
    }

    /** The entries of one struct (its size and fields), sorted so that a difference reads well. */
    private static Map<String, Long> of(Map<String, Long> layouts, String struct) {
        Map<String, Long> entries = new TreeMap<>();
        layouts.forEach((key, value) -> {
            if (key.equals(struct) || key.startsWith(struct + ".")) {
                entries.put(key, value);
            }
        });
        assertTrue(entries.containsKey(struct), "no " + struct + " in " + layouts.keySet());
        return entries;
    }

    private static Map<String, Long> parse(String lines) {
        Map<String, Long> layouts = new LinkedHashMap<>();
        lines.lines().map(line -> line.split(" ")).forEach(words -> layouts.put(words[0], Long.parseUnsignedLong(words[1])));
        return layouts;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "still running: " + command);
        assertEquals(0, process.exitValue(), output);
        return output;
    }

    /** Loads the agent as a module (its main does not run) and prints what it took from nvml.h. */
    private static final String AGENT_LAYOUT = """
            import ctypes, sys
            path = sys.argv[1]
            agent = {"__name__": "nvidb_agent"}
            with open(path) as source:
                exec(compile(source.read(), path, "exec"), agent)
            for name in ("Memory", "MemoryV2", "Utilization", "PciInfo", "ProcessInfoV1", "ProcessInfoV2",
                         "ProcessDetailV1"):
                struct = agent[name]
                print(name, ctypes.sizeof(struct))
                for field in struct._fields_:
                    print("%s.%s %d" % (name, field[0], getattr(struct, field[0]).offset))
            print("nvmlMemory_v2", agent["MEMORY_V2_VERSION"])
            for name in ("NOT_AVAILABLE", "NVML_SUCCESS", "NVML_ERROR_NO_PERMISSION", "NVML_ERROR_NOT_FOUND",
                         "NVML_ERROR_INSUFFICIENT_SIZE", "NVML_ERROR_ARGUMENT_VERSION_MISMATCH",
                         "NVML_PCIE_UTIL_TX_BYTES", "NVML_PCIE_UTIL_RX_BYTES", "NVML_DEVICE_MIG_ENABLE"):
                print(name, agent[name])
            for index, code in enumerate(agent["FIELD_ONLY_ERRORS"]):
                print("FIELD_ONLY_ERRORS.%d %d" % (index, code))
            """;
}
