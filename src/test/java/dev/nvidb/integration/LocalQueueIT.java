package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.testing.FakeGpuState;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue with nothing configured: this machine is the only node, reached without SSH.
 * This is the README's first command on a fresh machine.
 */
class LocalQueueIT {

    @TempDir
    Path home;

    private Map<String, String> env() {
        return Launcher.localEnvironment(home);
    }

    @Test
    void cpuJobRunsOnAMachineWithoutGpus() throws Exception {
        Launcher.Run run = Launcher.run(env(), "job", "submit", "--gpus", "0", "--wait", "--", "echo hello");
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertEquals("1 completed exit 0\n", run.stdout());
        assertEquals("hello\n", Launcher.run(env(), "job", "logs", "1").stdout());
    }

    @Test
    void gpuJobOnAMachineWithoutGpusFailsAtOnceSayingWhy() throws Exception {
        Launcher.Run run = Launcher.run(env(), "job", "submit", "--wait", "--", "echo hello");
        assertEquals(1, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().contains("failed: unschedulable"), run.stdout());
    }

    @Test
    void gpuJobRunsOnTheLocalFakeGpu() throws Exception {
        Path state = FakeGpuState.create().gpu(0, "NVIDIA GeForce RTX 3090", 24576).uuid(0, "GPU-local").used(0, 100)
                .writeTo(home.resolve("gpu-state"));
        Map<String, String> env = env();
        env.putAll(FakeGpuState.environment(state));
        Launcher.Run run = Launcher.run(env, "job", "submit", "--vram", "8G", "--wait", "--",
                "echo $CUDA_VISIBLE_DEVICES $CUDA_DEVICE_ORDER");
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertEquals("0 PCI_BUS_ID\n", Launcher.run(env, "job", "logs", "1").stdout());
    }
}
