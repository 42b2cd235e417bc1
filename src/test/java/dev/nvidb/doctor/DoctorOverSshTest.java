package dev.nvidb.doctor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.cli.CliRunner;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.HostOptions;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nvidb doctor} against real SSH servers on loopback with fake GPUs: a healthy node, a
 * stopped one, one without python3 and one whose host key is not in known_hosts; and the proof
 * that it changes nothing.
 */
class DoctorOverSshTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static SshHarness harness;

    @TempDir
    Path home;

    @BeforeAll
    static void startHosts() throws IOException {
        harness = new SshHarness();
        TestHost a = harness.addHost("gpu-a");
        TestHost nopy = harness.addHost("gpu-nopy", HostOptions.defaults().withoutPython());
        harness.addHost("gpu-stopped").stop();
        FakeGpuState.create().driver("550.54.14").gpu(0, "NVIDIA H100 80GB HBM3", 81559).used(0, 1024)
                .writeTo(a.gpuStateFile());
        FakeGpuState.create().gpu(0, "Tesla V100-PCIE-16GB", 16384).used(0, 4096).writeTo(nopy.gpuStateFile());
    }

    @AfterAll
    static void stopHosts() {
        harness.close();
    }

    private Map<String, String> environment(List<String> servers, String basicExtra) throws IOException {
        harness.writeClientHome(home);
        Path nvidbHome = home.resolve(".nvidb");
        Files.createDirectories(nvidbHome);
        String list = servers.stream().map(name -> "  - hostname: " + name + "\n").collect(Collectors.joining());
        Files.writeString(nvidbHome.resolve("config.yml"), "basic:\n  include_local: false\n  connect_timeout: 2\n"
                + "  command_timeout: 20\n" + basicExtra + "servers:\n" + list);
        return Map.of("HOME", home.toString(), "NVIDB_HOME", nvidbHome.toString());
    }

    private static JsonNode node(JsonNode document, String name) {
        return StreamSupport.stream(document.get("nodes").spliterator(), false)
                .filter(node -> node.get("node").asText().equals(name)).findFirst().orElseThrow();
    }

    private static JsonNode check(JsonNode object, String name) {
        return StreamSupport.stream(object.get("checks").spliterator(), false)
                .filter(check -> check.get("check").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no check " + name + " in " + object));
    }

    @Test
    void aHealthyNodeNeedsNoAttentionAndSaysHowItWasReached() throws Exception {
        CliRunner.Result run = CliRunner.run(environment(List.of("gpu-a"), ""), "doctor", "--json");
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        JsonNode document = JSON.readTree(run.stdout());
        assertTrue(document.get("ok").asBoolean());
        assertEquals(0, document.get("problems").asInt());
        JsonNode a = node(document, "gpu-a");
        assertTrue(a.get("reachable").asBoolean());
        assertEquals("known", a.get("host_key").asText());
        assertTrue(a.get("host_key_fingerprint").asText().startsWith("SHA256:"), a.toString());
        assertEquals("publickey ~/.ssh/id_ed25519", a.get("auth").asText());
        assertFalse(a.get("python").isNull());
        assertEquals("nvml", a.get("gpu_source").asText());
        assertEquals("550.54.14", a.get("driver_version").asText());
        assertEquals(1, a.get("gpus").asInt());
        assertTrue(Math.abs(a.get("clock_skew_s").asDouble()) < 2, a.toString());
        assertTrue(a.get("disk_free_mb").asLong() > 0, a.toString());
        assertTrue(a.get("proc_hides_others").isBoolean(), a.toString());
        assertEquals(List.of("queue", "monitor"), JSON.convertValue(a.get("roles"), List.class));
        for (String name : List.of("reachable", "host_key", "auth", "python3", "gpu", "clock", "disk")) {
            assertEquals("ok", check(a, name).get("status").asText(), name + ": " + a);
        }
        JsonNode database = document.get("database");
        assertFalse(database.get("exists").asBoolean());
        assertEquals("note", check(database, "database").get("status").asText());
        assertTrue(node(document, "gpu-a").get("local").isBoolean());
    }

    @Test
    void aStoppedNodeIsAProblemWithAHint() throws Exception {
        Map<String, String> env = environment(List.of("gpu-a", "gpu-stopped"), "");
        CliRunner.Result run = CliRunner.run(env, "doctor", "--json");
        assertEquals(1, run.exitCode(), run.stdout() + run.stderr());
        JsonNode stopped = node(JSON.readTree(run.stdout()), "gpu-stopped");
        assertFalse(stopped.get("reachable").asBoolean());
        JsonNode reachable = check(stopped, "reachable");
        assertEquals("problem", reachable.get("status").asText());
        assertTrue(reachable.get("detail").asText().contains("connection refused"), reachable.toString());
        assertFalse(reachable.get("hint").isNull());
        assertTrue(node(JSON.readTree(run.stdout()), "gpu-a").get("ok").asBoolean(), "the other node is fine");

        CliRunner.Result text = CliRunner.run(env, "doctor");
        assertEquals(1, text.exitCode());
        assertTrue(text.stdout().contains("! reachable"), text.stdout());
        assertTrue(text.stdout().contains("hint: "), text.stdout());
        assertTrue(text.stdout().contains("✓ auth"), text.stdout());
        assertTrue(text.stdout().contains("1 problem needs attention"), text.stdout());
        assertEquals("", text.stderr());
    }

    @Test
    void aNodeWithoutPython3IsAProblemForTheQueue() throws Exception {
        CliRunner.Result run = CliRunner.run(environment(List.of("gpu-nopy"), ""), "doctor", "--json");
        assertEquals(1, run.exitCode(), run.stdout() + run.stderr());
        JsonNode nopy = node(JSON.readTree(run.stdout()), "gpu-nopy");
        assertTrue(nopy.get("python").isNull());
        assertEquals("nvidia-smi", nopy.get("gpu_source").asText());
        JsonNode python = check(nopy, "python3");
        assertEquals("problem", python.get("status").asText());
        assertTrue(python.get("hint").asText().contains("install python3 on gpu-nopy"), python.toString());
        assertEquals("note", check(nopy, "gpu").get("status").asText(), "the fallback itself is expected without python3");
    }

    @Test
    void anUnknownHostKeyIsAProblemAndIsNeverRecorded() throws Exception {
        Map<String, String> env = environment(List.of("gpu-a"), "  host_key_policy: accept-new\n");
        TestHost a = harness.host("gpu-a");
        Path knownHosts = home.resolve(".ssh/known_hosts");
        Files.write(knownHosts, Files.readAllLines(knownHosts).stream().filter(line -> !line.contains(a.address()))
                .toList());
        byte[] before = Files.readAllBytes(knownHosts);

        CliRunner.Result run = CliRunner.run(env, "doctor", "--json");
        assertEquals(1, run.exitCode(), run.stdout() + run.stderr());
        JsonNode node = node(JSON.readTree(run.stdout()), "gpu-a");
        assertEquals("unknown", node.get("host_key").asText());
        JsonNode hostKey = check(node, "host_key");
        assertEquals("problem", hostKey.get("status").asText());
        assertTrue(hostKey.get("hint").asText().contains("nvidb trust gpu-a"), hostKey.toString());
        assertTrue(node.get("auth").isNull(), "nothing is sent to a host whose key is not known");
        assertArrayEquals(before, Files.readAllBytes(knownHosts), "accept-new or not, doctor records no key");
    }

    @Test
    void doctorChangesNeitherTheDatabaseNorKnownHosts() throws Exception {
        Map<String, String> env = environment(List.of("gpu-a"), "");
        assertEquals(0, CliRunner.run(env, "queue", "status", "--no-tick").exitCode());
        Path nvidbHome = home.resolve(".nvidb");
        Path database = nvidbHome.resolve("queue.db");
        Path knownHosts = home.resolve(".ssh/known_hosts");
        byte[] databaseBefore = Files.readAllBytes(database);
        byte[] knownHostsBefore = Files.readAllBytes(knownHosts);
        Set<String> filesBefore = files(home);

        CliRunner.Result run = CliRunner.run(env, "doctor", "--json");
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        JsonNode db = JSON.readTree(run.stdout()).get("database");
        assertTrue(db.get("exists").asBoolean());
        assertTrue(db.get("wal").asBoolean());
        assertFalse(db.get("network_filesystem").asBoolean());
        assertEquals(db.get("build_schema_version").asInt(), db.get("schema_version").asInt());
        for (String name : List.of("database", "wal", "filesystem", "schema", "lease")) {
            assertEquals("ok", check(db, name).get("status").asText(), name + ": " + db);
        }
        assertFalse(db.get("lease").get("held").asBoolean());

        assertArrayEquals(databaseBefore, Files.readAllBytes(database));
        assertArrayEquals(knownHostsBefore, Files.readAllBytes(knownHosts));
        assertEquals(filesBefore, files(home), "no file created or removed (no -wal, -shm, job root)");
    }

    @Test
    void badInputIsOneLineAndExit2() throws Exception {
        CliRunner.Result run = CliRunner.run(environment(List.of("gpu-a"), ""), "doctor", "--frobnicate");
        assertEquals(2, run.exitCode());
        assertEquals("", run.stdout());
        assertFalse(run.stderr().contains("at dev.nvidb"), run.stderr());
    }

    private static Set<String> files(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.map(path -> root.relativize(path).toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
