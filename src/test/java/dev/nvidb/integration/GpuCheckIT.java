package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code bench/gpu-check}, the check meant for a machine with a real NVIDIA driver, run as CI runs
 * it: against the fake driver the build makes (libnvidia-ml, nvidia-smi and libcuda), through the
 * built {@code bin/nvidb}. Every check it prints must pass, a real job included (it allocates
 * through the fake libcuda, which the fake NVML and nvidia-smi then report).
 */
class GpuCheckIT {

    @Test
    void theGpuCheckPassesOnTheFakeDriver() throws Exception {
        Path project = Path.of(System.getProperty("nvidb.project.dir", ".")).toAbsolutePath();
        Path fake = Path.of(System.getProperty("nvidb.fake.nvml.dir"));
        ProcessBuilder builder = new ProcessBuilder(List.of(project.resolve("bench/gpu-check").toString(),
                "--fake", fake.toString())).redirectErrorStream(true);
        builder.environment().put("NVIDB_NO_BUILD", "1"); // `verify` packaged the jar just before
        builder.environment().put("NVIDB_BUILD_DIR", System.getProperty("nvidb.build.dir",
                project.resolve("target").toString()));
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(300, TimeUnit.SECONDS), "bench/gpu-check ran past 5 minutes");
        String report = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), report);
        assertTrue(report.contains(", 0 failed") && !report.contains("\nFAIL "), report);
        for (String check : List.of("the probe lists the GPUs nvidia-smi lists", "compute process",
                "allocated 2.0 GiB through libcuda", "the queue attributes process",
                "the queue measures the job's 2048 MiB", "settled: completed, exit 0", "settled: failed, exit 3",
                "holds what it held before them")) {
            assertTrue(report.contains("PASS ") && report.lines().anyMatch(line -> line.startsWith("PASS ")
                    && line.contains(check)), "no passing check '" + check + "' in:\n" + report);
        }
    }
}
