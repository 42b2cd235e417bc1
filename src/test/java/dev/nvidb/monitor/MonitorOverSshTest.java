package dev.nvidb.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.cli.CliRunner;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.FakeGpuState.ProcessKind;
import dev.nvidb.testing.HostOptions;
import dev.nvidb.testing.HungHost;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nvidb --once --remote} over real SSH servers (MINA, one per loopback address) with
 * fake GPUs: three healthy nodes, one without python3, one hung and one stopped.
 */
class MonitorOverSshTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static SshHarness harness;
    private static Process sleeper;

    @TempDir
    Path home;

    @BeforeAll
    static void startHosts() throws IOException {
        harness = new SshHarness();
        sleeper = new ProcessBuilder("sleep", "300").start();
        TestHost a = harness.addHost("gpu-a");
        TestHost b = harness.addHost("gpu-b");
        TestHost c = harness.addHost("gpu-c");
        TestHost nopy = harness.addHost("gpu-nopy", HostOptions.defaults().withoutPython());
        harness.hungHost("gpu-hung");
        harness.addHost("gpu-stopped").stop();
        FakeGpuState.create().driver("550.54.14")
                .gpu(0, "NVIDIA H100 80GB HBM3", 81559).used(0, 20992).util(0, 97)
                .pcieLink(0, 4, 16).pcieMaxLink(0, 5, 16).pcieThroughput(0, 15_000_000, 250_000)
                .process(0, ProcessKind.COMPUTE, sleeper.pid(), 20480)
                .gpu(1, "NVIDIA H100 80GB HBM3", 81559).used(1, 0).util(1, 0)
                .writeTo(a.gpuStateFile());
        FakeGpuState.create().gpu(0, "NVIDIA GeForce RTX 3090", 24576).used(0, 23000).util(0, 10)
                .blindProcess(0, 999999).writeTo(b.gpuStateFile());
        FakeGpuState.create().gpu(0, "NVIDIA A100-SXM4-40GB", 40960).used(0, 100)
                .gpu(1, "NVIDIA A100-SXM4-40GB", 40960).lost(1).writeTo(c.gpuStateFile());
        FakeGpuState.create().gpu(0, "Tesla V100-PCIE-16GB", 16384).used(0, 4096).util(0, 55)
                .process(0, ProcessKind.COMPUTE, 4242, 4000).writeTo(nopy.gpuStateFile());
    }

    @AfterAll
    static void stopHosts() {
        sleeper.destroyForcibly();
        harness.close();
    }

    private Map<String, String> environment(List<String> servers) throws IOException {
        harness.writeClientHome(home);
        Path nvidbHome = home.resolve(".nvidb");
        Files.createDirectories(nvidbHome);
        String list = servers.stream().map(name -> "  - hostname: " + name + "\n").collect(Collectors.joining());
        Files.writeString(nvidbHome.resolve("config.yml"),
                "basic:\n  include_local: false\n  connect_timeout: 2\n  command_timeout: 20\nservers:\n" + list);
        return Map.of("HOME", home.toString(), "NVIDB_HOME", nvidbHome.toString());
    }

    private static Map<String, JsonNode> byNode(JsonNode document) {
        return java.util.stream.StreamSupport.stream(document.get("nodes").spliterator(), false)
                .collect(Collectors.toMap(node -> node.get("node").asText(), node -> node));
    }

    @Test
    void threeNodesReportTheirScriptedGpusAndProcesses() throws Exception {
        CliRunner.Result run = CliRunner.run(environment(List.of("gpu-a", "gpu-b", "gpu-c")),
                "--once", "--remote", "--json");
        assertEquals(0, run.exitCode(), run.stderr());
        Map<String, JsonNode> nodes = byNode(JSON.readTree(run.stdout()));
        JsonNode a = nodes.get("gpu-a");
        assertEquals("up", a.get("status").asText());
        assertEquals("nvml", a.get("source").asText());
        assertEquals("550.54.14", a.get("driver_version").asText());
        JsonNode busy = a.at("/gpus/0");
        assertEquals(81559, busy.get("mem_total_mb").asInt());
        assertEquals(20992, busy.get("mem_used_mb").asInt());
        assertEquals(97, busy.get("util_percent").asInt());
        JsonNode process = busy.at("/processes/0");
        assertEquals(sleeper.pid(), process.get("pid").asLong());
        assertEquals(20480, process.get("mem_mb").asInt());
        assertEquals("sleep", process.get("name").asText());
        assertEquals(System.getProperty("user.name"), process.get("user").asText());
        assertEquals(0, a.at("/gpus/1/mem_used_mb").asInt());

        JsonNode blind = nodes.get("gpu-b").at("/gpus/0");
        assertEquals("blind", blind.get("attribution").asText());
        assertTrue(blind.at("/processes/0/mem_mb").isNull());

        JsonNode c = nodes.get("gpu-c");
        assertEquals("up", c.get("status").asText());
        assertEquals("measured", c.at("/gpus/0/attribution").asText());
        assertEquals("GPU is lost", c.at("/gpus/1/error").asText());
        assertEquals("unknown", c.at("/gpus/1/attribution").asText());
    }

    @Test
    void onceJsonCarriesPcieProcessFiguresAndTheCapacityOfTheAnsweringNodes() throws Exception {
        CliRunner.Result run = CliRunner.run(environment(List.of("gpu-a", "gpu-c", "gpu-stopped")),
                "--once", "--remote", "--json");
        assertEquals(1, run.exitCode(), "gpu-stopped did not answer: " + run.stderr());
        JsonNode document = JSON.readTree(run.stdout());

        JsonNode pcie = byNode(document).get("gpu-a").at("/gpus/0/pcie");
        assertEquals("4.0x16", pcie.get("link").asText());
        assertEquals("5.0x16", pcie.get("max_link").asText());
        assertEquals(31.508, pcie.get("link_gb_s").asDouble(), 1e-9);
        assertEquals(15_000_000, pcie.get("rx_kb_s").asLong());
        assertEquals(47.6, pcie.get("rx_percent").asDouble(), 1e-9);
        assertEquals(0.8, pcie.get("tx_percent").asDouble(), 1e-9);
        assertTrue(byNode(document).get("gpu-a").at("/gpus/1/pcie/link").isNull(), "not scripted: unknown");

        JsonNode process = byNode(document).get("gpu-a").at("/gpus/0/processes/0");
        assertEquals("sleep 300", process.get("command").asText());
        assertFalse(process.get("command_truncated").asBoolean());
        assertEquals("S", process.get("state").asText());
        assertEquals(1, process.get("threads").asInt());
        assertTrue(process.get("rss_bytes").asLong() > 0, process.toString());
        assertTrue(process.get("host_mem_percent").isNumber(), process.toString());
        assertTrue(process.get("elapsed_s").asLong() >= 0, process.toString());
        assertTrue(process.get("cpu_percent").asDouble() < 5, "sleep is idle: " + process);

        // gpu-a: one busy (97%), one available (0%, empty); gpu-c: one without a utilisation
        // figure (neither), one lost (unknown); gpu-stopped did not answer and adds nothing.
        JsonNode capacity = document.get("capacity");
        assertEquals(4, capacity.get("gpus").asInt());
        assertEquals(1, capacity.get("available").asInt());
        assertEquals(1, capacity.get("busy").asInt());
        assertEquals(1, capacity.get("unknown").asInt());
        assertEquals(48.5, capacity.get("avg_util_percent").asDouble(), 1e-9);
        assertEquals(20992 + 0 + 100, capacity.get("mem_used_mb").asLong());
        assertEquals(81559 * 2 + 40960, capacity.get("mem_total_mb").asLong());
        assertEquals((81559 - 20992) + 81559 + (40960 - 100), capacity.get("mem_free_mb").asLong());
    }

    @Test
    void onceTextShowsTheLinkWhereWidthAllowsAndTheCapacityLine() throws Exception {
        Map<String, String> env = new java.util.HashMap<>(environment(List.of("gpu-a", "gpu-c")));
        env.put("COLUMNS", "100");

        CliRunner.Result run = CliRunner.run(env, "--once", "--remote");

        assertEquals(0, run.exitCode(), run.stderr());
        String busyRow = run.stdout().lines().filter(line -> line.contains("97%")).findFirst().orElseThrow();
        assertTrue(busyRow.endsWith("4.0x16     48%/1%"), busyRow);
        assertTrue(run.stdout().contains("capacity  avail 1/4  busy 1  unknown 1  util 49%  VRAM 20.6G/199.3G"),
                run.stdout());
    }

    @Test
    void textReportListsEveryNodeInConfigurationOrder() throws Exception {
        CliRunner.Result run = CliRunner.run(environment(List.of("gpu-c", "gpu-a")), "--once", "--remote");
        assertEquals(0, run.exitCode(), run.stderr());
        List<String> nodeLines = run.stdout().lines().filter(line -> line.startsWith("gpu-")).toList();
        assertEquals(2, nodeLines.size(), run.stdout());
        assertTrue(nodeLines.get(0).startsWith("gpu-c  up  127.0.0."), nodeLines.get(0));
        assertTrue(nodeLines.get(1).startsWith("gpu-a  up  127.0.0."), nodeLines.get(1));
        assertTrue(run.stdout().contains("error: GPU is lost"), run.stdout());
        assertTrue(run.stdout().contains("sleep 300"), run.stdout());
    }

    @Test
    void hungAndStoppedNodesDoNotHoldUpTheOthers() throws Exception {
        HungHost hung = null;
        CliRunner.Result run = CliRunner.run(environment(List.of("gpu-hung", "gpu-a", "gpu-stopped", "gpu-b")),
                "--once", "--remote", "--json");
        assertEquals(1, run.exitCode(), "a node that did not answer makes the exit code 1");
        Map<String, JsonNode> nodes = byNode(JSON.readTree(run.stdout()));
        assertEquals("down", nodes.get("gpu-hung").get("status").asText());
        assertTrue(nodes.get("gpu-hung").get("error").asText().contains("gpu-hung"), nodes.get("gpu-hung").toString());
        assertEquals("down", nodes.get("gpu-stopped").get("status").asText());
        assertTrue(nodes.get("gpu-stopped").get("error").asText().toLowerCase().contains("refused"),
                nodes.get("gpu-stopped").toString());
        // The healthy nodes answered without waiting for the hung one's 2 s connect timeout.
        for (String healthy : List.of("gpu-a", "gpu-b")) {
            assertEquals("up", nodes.get(healthy).get("status").asText());
            assertTrue(nodes.get(healthy).get("probe_ms").asLong() < nodes.get("gpu-hung").get("probe_ms").asLong(),
                    healthy + " answered before the hung node gave up");
        }
        assertTrue(nodes.get("gpu-hung").get("probe_ms").asLong() >= 2000, "the hung node used its own timeout");
        assertNull(hung);
    }

    @Test
    void thisMachineWithoutADriverDoesNotFailTheRemoteView() throws Exception {
        Map<String, String> env = environment(List.of("gpu-a", "gpu-b"));
        Path config = home.resolve(".nvidb/config.yml");
        Files.writeString(config, Files.readString(config).replace("include_local: false", "include_local: true"));
        CliRunner.Result alone = CliRunner.run(env, "--once", "--no-remote", "--json");
        String local = byNode(JSON.readTree(alone.stdout())).values().iterator().next().get("status").asText();
        org.junit.jupiter.api.Assumptions.assumeTrue(local.equals("no_gpu"),
                "this machine has an NVIDIA driver (" + local + "); the case needs one without");
        assertEquals(1, alone.exitCode(), "alone, a machine without a driver fails: " + alone.stdout());
        assertEquals(1, CliRunner.run(env, "--once", "--no-remote").exitCode());

        CliRunner.Result remote = CliRunner.run(env, "--once", "--remote", "--json");
        assertEquals(0, remote.exitCode(), "every configured server answered: " + remote.stdout());
        JsonNode document = JSON.readTree(remote.stdout());
        assertTrue(document.get("ok").asBoolean(), remote.stdout());
        List<String> statuses = java.util.stream.StreamSupport.stream(document.get("nodes").spliterator(), false)
                .map(node -> node.get("status").asText()).toList();
        assertEquals(List.of("no_gpu", "up", "up"), statuses, "this machine's row says it has no NVIDIA GPU");
        CliRunner.Result text = CliRunner.run(env, "--once", "--remote");
        assertEquals(0, text.exitCode(), text.stdout());

        Files.writeString(config, Files.readString(config) + "  - hostname: gpu-stopped\n");
        assertEquals(1, CliRunner.run(env, "--once", "--remote", "--json").exitCode(),
                "a configured server that did not answer still fails the run");
    }

    @Test
    void nodeWithoutPythonFallsBackToNvidiaSmi() throws Exception {
        CliRunner.Result run = CliRunner.run(environment(List.of("gpu-nopy")), "--once", "--remote", "--json");
        assertEquals(0, run.exitCode(), run.stderr() + run.stdout());
        JsonNode node = byNode(JSON.readTree(run.stdout())).get("gpu-nopy");
        assertEquals("nvidia-smi", node.get("source").asText());
        assertEquals("Tesla V100-PCIE-16GB", node.at("/gpus/0/name").asText());
        assertEquals(4096, node.at("/gpus/0/mem_used_mb").asInt());
        assertEquals(4242, node.at("/gpus/0/processes/0/pid").asInt());
        assertEquals(4000, node.at("/gpus/0/processes/0/mem_mb").asInt());
    }

    @Test
    void oneConnectionPerNodeForAProbe() throws Exception {
        TestHost c = harness.host("gpu-c");
        int before = c.sessionsOpened();
        CliRunner.Result run = CliRunner.run(environment(List.of("gpu-c")), "--once", "--remote", "--json");
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(before + 1, c.sessionsOpened());
    }

    @Test
    void unknownHostKeyIsRefusedUntilTrusted() throws Exception {
        Map<String, String> env = environment(List.of("gpu-a"));
        TestHost a = harness.host("gpu-a");
        Path knownHosts = home.resolve(".ssh/known_hosts");
        List<String> others = Files.readAllLines(knownHosts).stream()
                .filter(line -> !line.contains(a.address())).toList();
        Files.write(knownHosts, others);

        CliRunner.Result refused = CliRunner.run(env, "--once", "--remote", "--json");
        assertEquals(1, refused.exitCode());
        JsonNode node = byNode(JSON.readTree(refused.stdout())).get("gpu-a");
        assertEquals("down", node.get("status").asText());
        assertTrue(node.get("error").asText().contains("not known: run 'nvidb trust gpu-a'"), node.toString());
        CliRunner.Result text = CliRunner.run(env, "--once", "--remote");
        assertTrue(text.stdout().contains("is not known: run 'nvidb trust gpu-a'"), "the README's hint: " + text.stdout());

        CliRunner.Result unconfirmed = CliRunner.run(env, "trust", "gpu-a");
        assertEquals(2, unconfirmed.exitCode(), unconfirmed.stderr());
        assertTrue(unconfirmed.stderr().contains("SHA256:"), unconfirmed.stderr());
        assertFalse(Files.readString(knownHosts).contains(a.address()));

        CliRunner.Result trusted = CliRunner.run(env, "trust", "gpu-a", "--yes", "--json");
        assertEquals(0, trusted.exitCode(), trusted.stderr());
        assertTrue(JSON.readTree(trusted.stdout()).get("recorded").asBoolean());
        assertEquals(0, CliRunner.run(env, "--once", "--remote", "--json").exitCode());
    }
}
