package dev.nvidb.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.testing.FakeGpuState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * For bench/run: a one-shot probe of four GPUs whose PCIe throughput readings each take 500 ms
 * (as the driver's 20 ms sample would at scale), by the real agent against the fake NVML. Read
 * one after another they would take 2 s; the agent reads them at once. Prints the median of
 * {@code args[0]} probes (default 5), each a fresh agent exec as a tick sends it:
 * {@code java -cp <test classpath> -Dnvidb.fake.nvml.dir=DIR dev.nvidb.agent.PcieProbeMain [N]}.
 */
public final class PcieProbeMain {

    private PcieProbeMain() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path dir = Files.createTempDirectory("nvidb-pcie-bench");
        try {
            Path state = dir.resolve("gpu-state");
            FakeGpuState gpus = FakeGpuState.create().pcieSampleMs(500);
            IntStream.range(0, 4).forEach(i -> gpus.gpu(i, "NVIDIA H100", 81559).pcieThroughput(i, 1000 + i, 2000 + i));
            gpus.writeTo(state);
            LocalAgent agent = new LocalAgent(Files.createDirectories(dir.resolve("home")), state, dir);
            double[] ms = new double[runs];
            for (int i = 0; i < runs; i++) {
                long start = System.nanoTime();
                JsonNode reply = new ObjectMapper().readTree(agent.sendRaw(AgentRequest.probe("~/.nvidb/jobs")));
                ms[i] = (System.nanoTime() - start) / 1e6;
                if (reply.path("gpus").path(3).path("pcie").path("rx_kb_s").asLong() != 1003) {
                    throw new IllegalStateException("the probe read no throughput of GPU 3: " + reply);
                }
            }
            Arrays.sort(ms);
            System.out.printf(java.util.Locale.ROOT, "pcie_probe_median_ms=%.0f%n", ms[runs / 2]);
        } finally {
            new ProcessBuilder("rm", "-rf", dir.toString()).start().waitFor();
        }
    }
}
