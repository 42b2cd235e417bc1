package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.OldPythons;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Nodes whose {@code python3} is one that labs still run (3.6, 3.7, 3.8) or one too old (2.7,
 * standing in for 3.5): real OpenSSH servers whose login users find that build first on their
 * PATH, in the C locale of a plain SSH exec (no PAM, no LANG), driven through the built
 * {@code bin/nvidb}. The old ones probe, run a job and settle it; the too old one is reported
 * down with a line naming its version.
 */
class OldPythonNodesIT {

    /** One node: its python's minor version, its own loopback address and login user. */
    private record Node(String minor, String address, String user) {
        String name() {
            return "py-" + minor.replace(".", "");
        }
    }

    static final List<String> SUPPORTED = OldPythons.SUPPORTED;
    private static final List<Node> NODES = List.of(new Node("3.6", "127.0.0.71", "nvidbpy36"),
            new Node("3.7", "127.0.0.72", "nvidbpy37"), new Node("3.8", "127.0.0.73", "nvidbpy38"),
            new Node(OldPythons.TOO_OLD, "127.0.0.74", "nvidbpy27"));
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<OpenSshHost> HOSTS = new ArrayList<>();
    private static final List<Path> COPIES = new ArrayList<>();
    private static Path home;

    @BeforeAll
    static void startHosts() throws Exception {
        Prerequisites.requireOpenSsh();
        Path work = Files.createTempDirectory("nvidb-old-python");
        home = work.resolve("home");
        Path key = OpenSshHost.clientHome(home);
        Path fake = Path.of(System.getProperty("nvidb.fake.nvml.dir"));
        StringBuilder config = new StringBuilder();
        StringBuilder known = new StringBuilder();
        StringBuilder servers = new StringBuilder("servers:\n");
        for (Node node : NODES) {
            OpenSshHost host = OpenSshHost.startWithPython(node.name(), node.address(), node.user(), work, key, fake,
                    readableCopy(node.minor()));
            HOSTS.add(host);
            config.append("Host ").append(host.name()).append("\n  HostName ").append(host.address())
                    .append("\n  Port ").append(host.port()).append("\n  User ").append(host.username()).append('\n');
            known.append(host.knownHostsLine()).append('\n');
            servers.append("  - hostname: ").append(host.name()).append('\n');
            FakeGpuState.create().gpu(0, "NVIDIA L40S", 46068).uuid(0, "GPU-" + host.name()).used(0, 0)
                    .writeTo(host.gpuStateFile());
        }
        Files.writeString(key.resolveSibling("config"), config.toString());
        Files.writeString(key.resolveSibling("known_hosts"), known.toString());
        Path nvidb = Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(nvidb.resolve("queue.yml"), servers + "queue:\n  tick_min_interval: 0\n");
    }

    /**
     * The pyenv build of {@code minor} where the login users can read it (/root is 0700): hard
     * links in a tree of its own (nothing copied, and still only root may write them; a plain
     * copy where /root is another file system). Its python3 needs its lib/ (a shared build, whose
     * run path points into /root), which the host puts on LD_LIBRARY_PATH. Removed after the class.
     */
    private static Path readableCopy(String minor) throws Exception {
        Path install = OldPythons.install(minor);
        Path copy = OpenSshHost.SHARED.resolve("python-" + minor);
        Files.createDirectories(OpenSshHost.SHARED);
        OpenSshHost.run("rm", "-rf", copy.toString());
        COPIES.add(copy);
        if (OpenSshHost.exitCode("cp", "-al", install.toString(), copy.toString()) != 0) {
            OpenSshHost.run("rm", "-rf", copy.toString());
            OpenSshHost.run("cp", "-a", install.toString(), copy.toString());
        }
        Path python3 = copy.resolve("bin/python3");
        if (!Files.exists(python3)) {  // 2.7: a node whose python3 is really a 2.7
            Files.createSymbolicLink(python3, Path.of("python" + minor));
        }
        return copy;
    }

    @AfterAll
    static void stopHosts() throws Exception {
        HOSTS.forEach(OpenSshHost::close);
        for (Path copy : COPIES) {
            OpenSshHost.run("rm", "-rf", copy.toString());
        }
    }

    private static Map<String, String> env() {
        return Map.of("HOME", home.toString(), "PATH", System.getenv("PATH"));
    }

    private static Node node(String minor) {
        return NODES.stream().filter(node -> node.minor().equals(minor)).findFirst().orElseThrow();
    }

    private static Map<String, JsonNode> byNode(Launcher.Run run) throws Exception {
        return StreamSupport.stream(JSON.readTree(run.stdout()).get("nodes").spliterator(), false)
                .collect(Collectors.toMap(node -> node.get("node").asText(), node -> node));
    }

    @Test
    void theOldPythonsAreUpWithTheirGpusAndTheTooOldOneIsDownSayingWhy() throws Exception {
        Launcher.Run run = Launcher.run(env(), "queue", "nodes", "--json");
        Map<String, JsonNode> nodes = byNode(run);
        for (String minor : SUPPORTED) {
            JsonNode up = nodes.get(node(minor).name());
            assertEquals("up", up.get("status").asText(), up.toString());
        }
        String tooOld = ".*python3 on the node is " + OldPythons.TOO_OLD.replace(".", "\\.")
                + "\\.\\d+, and the nvidb agent needs 3\\.6 or newer.*";
        JsonNode down = nodes.get(node(OldPythons.TOO_OLD).name());
        assertEquals("down", down.get("status").asText(), down.toString());
        assertTrue(down.get("last_error").asText().matches(tooOld), down.toString());

        // The doctor names the python each agent ran on, and that it read the GPUs through NVML.
        Map<String, JsonNode> doctor = byNode(Launcher.run(env(), "doctor", "--json"));
        for (String minor : SUPPORTED) {
            JsonNode checked = doctor.get(node(minor).name());
            assertTrue(checked.get("python").asText().startsWith(minor + "."), checked.toString());
            assertEquals("nvml", checked.get("gpu_source").asText(), checked.toString());
            assertEquals(1, checked.get("gpus").asInt(), checked.toString());
        }
        JsonNode refused = doctor.get(node(OldPythons.TOO_OLD).name());
        assertTrue(StreamSupport.stream(refused.get("checks").spliterator(), false).anyMatch(check ->
                check.get("check").asText().equals("agent") && check.get("status").asText().equals("problem")
                        && check.get("detail").asText().matches(tooOld)), refused.toString());
    }

    @ParameterizedTest
    @FieldSource("SUPPORTED")
    void aJobRunsAndSettlesWithItsExitCodeAndOutput(String minor) throws Exception {
        // From a file, so the non-ASCII reaches the node's run.sh whatever this JVM's locale.
        Path script = Files.writeString(home.resolve("job-" + minor + ".sh"),
                "echo \"héllo ✓ from $(python3 -c 'import platform; print(platform.python_version())')\"\n"
                        + "echo 'fäiled' >&2\nexit 3\n");
        Launcher.Run run = Launcher.run(env(), "job", "submit", "--wait", "--wait-timeout", "60", "--json",
                "--node", node(minor).name(), "--script", script.toString());
        assertEquals(1, run.exitCode(), run.stdout() + run.stderr());
        JsonNode job = JSON.readTree(run.stdout()).at("/jobs/0");
        assertEquals("failed", job.get("state").asText(), job.toString());
        assertEquals(3, job.get("exit_code").asInt(), job.toString());
        assertEquals(node(minor).name(), job.get("node").asText());
        Launcher.Run logs = Launcher.run(env(), "job", "logs", job.get("id").asText());
        assertEquals(0, logs.exitCode(), logs.stderr());
        assertTrue(logs.stdout().matches("héllo ✓ from " + minor.replace(".", "\\.") + "\\.\\d+\n"), logs.stdout());
        Launcher.Run errors = Launcher.run(env(), "job", "logs", "--stderr", job.get("id").asText());
        assertEquals("fäiled\n", errors.stdout());
    }
}
