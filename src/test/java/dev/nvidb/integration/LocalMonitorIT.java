package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.testing.FakeGpuState;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's first command, {@code bin/nvidb --once}, on this machine: no SSH involved. */
class LocalMonitorIT {

    @TempDir
    Path home;

    private Map<String, String> env() {
        return Launcher.localEnvironment(home);
    }

    @Test
    void localGpusThroughTheFakeDriver() throws Exception {
        Path state = FakeGpuState.create().driver("550.54.14").gpu(0, "NVIDIA GeForce RTX 4090", 24564).used(0, 1200)
                .util(0, 3).temperature(0, 35).writeTo(home.resolve("gpu-state"));
        Map<String, String> env = env();
        env.putAll(FakeGpuState.environment(state));
        Launcher.Run run = Launcher.run(env, "--once");
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().contains("NVIDIA GeForce RTX 4090"), run.stdout());
        assertTrue(run.stdout().contains("1.2G / 24.0G"), run.stdout());
        Launcher.Run json = Launcher.run(env, "--once", "--json");
        JsonNode node = new ObjectMapper().readTree(json.stdout()).at("/nodes/0");
        assertEquals("local", node.get("address").asText());
        assertEquals(35, node.at("/gpus/0/temperature_c").asInt());
    }

    @Test
    void machineWithoutDriverSaysSoInOneLine() throws Exception {
        Launcher.Run run = Launcher.run(env(), "--once");
        assertEquals(1, run.exitCode());
        assertEquals(1, run.stdout().lines().count(), run.stdout());
        assertTrue(run.stdout().contains("NO GPU  NVIDIA driver not found"), run.stdout());
    }

    @Test
    void versionPrintsTheBuild() throws Exception {
        Launcher.Run run = Launcher.run(env(), "--version");
        assertEquals(0, run.exitCode());
        assertTrue(run.stdout().startsWith("nvidb 0."), run.stdout());
    }
}
