package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.FakeGpuState.ProcessKind;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The monitor end to end as a new user meets it: the built {@code bin/nvidb} against real
 * OpenSSH servers (Debian's sshd, one per loopback address, each logging in as its own user)
 * with fake GPUs, reached through aliases in {@code ~/.ssh/config}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OpenSshMonitorIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<OpenSshHost> HOSTS = new ArrayList<>();
    private static Path work;
    private static Path home;
    private static ServerSocket hung;
    private static final List<Socket> HUNG_CONNECTIONS = new ArrayList<>();
    private static Process userProcess;

    @BeforeAll
    static void startHosts() throws Exception {
        Prerequisites.requireOpenSsh();
        work = Files.createTempDirectory("nvidb-openssh");
        home = work.resolve("home");
        Path key = OpenSshHost.clientHome(home);
        Path ssh = key.getParent();
        Path fake = Path.of(System.getProperty("nvidb.fake.nvml.dir"));
        HOSTS.add(OpenSshHost.start("gpu-1", "127.0.0.21", "nvidbt1", work, key, fake, true));
        HOSTS.add(OpenSshHost.start("gpu-2", "127.0.0.22", "nvidbt2", work, key, fake, true));
        HOSTS.add(OpenSshHost.start("gpu-3", "127.0.0.23", "nvidbt3", work, key, fake, true));
        HOSTS.add(OpenSshHost.start("gpu-nopy", "127.0.0.24", "nvidbt4", work, key, fake, false));
        hung = new ServerSocket();
        hung.bind(new InetSocketAddress("127.0.0.25", 0));
        Thread acceptor = new Thread(OpenSshMonitorIT::holdConnections, "hung-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        writeClientFiles(ssh);
        // A real process owned by gpu-1's login user, whose pid the fake driver reports.
        userProcess = new ProcessBuilder("setpriv", "--reuid=nvidbt1", "--regid=nvidbt1", "--clear-groups",
                "sleep", "600").start();
        FakeGpuState.create().driver("550.54.14")
                .gpu(0, "NVIDIA H100 80GB HBM3", 81559).used(0, 30720).util(0, 88)
                .process(0, ProcessKind.COMPUTE, userProcess.pid(), 30000)
                .gpu(1, "NVIDIA H100 80GB HBM3", 81559).used(1, 0)
                .writeTo(HOSTS.get(0).gpuStateFile());
        FakeGpuState.create().gpu(0, "NVIDIA RTX A6000", 49140).used(0, 2048).writeTo(HOSTS.get(1).gpuStateFile());
        FakeGpuState.create().gpu(0, "NVIDIA A100-SXM4-40GB", 40960).used(0, 512)
                .gpu(1, "NVIDIA A100-SXM4-40GB", 40960).lost(1).writeTo(HOSTS.get(2).gpuStateFile());
        FakeGpuState.create().gpu(0, "Tesla V100-PCIE-16GB", 16384).used(0, 8000)
                .process(0, ProcessKind.COMPUTE, 777, 7900).writeTo(HOSTS.get(3).gpuStateFile());
    }

    @AfterAll
    static void stopHosts() throws Exception {
        if (userProcess != null) {
            userProcess.destroyForcibly();
        }
        for (OpenSshHost host : HOSTS) {
            host.close();
        }
        if (hung != null) {
            hung.close();
        }
    }

    private static void holdConnections() {
        try {
            while (!hung.isClosed()) {
                HUNG_CONNECTIONS.add(hung.accept());
            }
        } catch (IOException closed) {
            // the test is over
        }
    }

    private static void writeClientFiles(Path ssh) throws IOException {
        StringBuilder config = new StringBuilder();
        StringBuilder known = new StringBuilder();
        for (OpenSshHost host : HOSTS) {
            config.append("Host ").append(host.name()).append("\n  HostName ").append(host.address())
                    .append("\n  Port ").append(host.port()).append("\n  User ").append(host.username()).append('\n');
            known.append(host.knownHostsLine()).append('\n');
        }
        config.append("Host gpu-hung\n  HostName 127.0.0.25\n  Port ").append(hung.getLocalPort()).append('\n');
        // gpu-2 once more, reached through gpu-1 as a jump host.
        config.append("Host gpu-2-via-1\n  HostName ").append(HOSTS.get(1).address()).append("\n  Port ")
                .append(HOSTS.get(1).port()).append("\n  User nvidbt2\n  ProxyJump gpu-1\n");
        Files.writeString(ssh.resolve("config"), config.toString());
        Files.writeString(ssh.resolve("known_hosts"), known.toString());
        Path nvidb = Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(nvidb.resolve("config.yml"), """
                basic:
                  include_local: false
                  connect_timeout: 3
                servers:
                  - hostname: gpu-1
                  - hostname: gpu-2
                  - hostname: gpu-3
                  - hostname: gpu-nopy
                """);
    }

    private static Map<String, String> env() {
        return Map.of("HOME", home.toString(), "PATH", System.getenv("PATH"));
    }

    private static Map<String, JsonNode> byNode(String stdout) throws IOException {
        return StreamSupport.stream(JSON.readTree(stdout).get("nodes").spliterator(), false)
                .collect(Collectors.toMap(node -> node.get("node").asText(), node -> node));
    }

    private static void servers(String... names) throws IOException {
        StringBuilder text = new StringBuilder("basic:\n  include_local: false\n  connect_timeout: 3\nservers:\n");
        for (String name : names) {
            text.append("  - hostname: ").append(name).append('\n');
        }
        Files.writeString(home.resolve(".nvidb/config.yml"), text.toString());
    }

    @Test
    @Order(1)
    void probesFourRealSshServersInParallel() throws Exception {
        servers("gpu-1", "gpu-2", "gpu-3", "gpu-nopy");
        Launcher.Run run = Launcher.run(env(), "--once", "--remote", "--json");
        assertEquals(0, run.exitCode(), run.stderr());
        Map<String, JsonNode> nodes = byNode(run.stdout());
        JsonNode first = nodes.get("gpu-1");
        assertEquals("nvml", first.get("source").asText());
        assertEquals(30720, first.at("/gpus/0/mem_used_mb").asInt());
        assertEquals(userProcess.pid(), first.at("/gpus/0/processes/0/pid").asLong());
        assertEquals("nvidbt1", first.at("/gpus/0/processes/0/user").asText());
        assertEquals("sleep", first.at("/gpus/0/processes/0/name").asText());
        assertEquals("NVIDIA RTX A6000", nodes.get("gpu-2").at("/gpus/0/name").asText());
        assertEquals("GPU is lost", nodes.get("gpu-3").at("/gpus/1/error").asText());
        JsonNode nopy = nodes.get("gpu-nopy");
        assertEquals("nvidia-smi", nopy.get("source").asText());
        assertEquals(7900, nopy.at("/gpus/0/processes/0/mem_mb").asInt());
    }

    @Test
    @Order(2)
    void hungAndStoppedServersAreReportedWithoutHoldingUpTheOthers() throws Exception {
        OpenSshHost third = HOSTS.get(2);
        third.stop();
        try {
            servers("gpu-hung", "gpu-1", "gpu-3", "gpu-2");
            Launcher.Run run = Launcher.run(env(), "--once", "--remote");
            assertEquals(1, run.exitCode(), run.stderr());
            List<String> lines = run.stdout().lines().filter(line -> line.startsWith("gpu-")).toList();
            assertTrue(lines.get(0).startsWith("gpu-hung  DOWN  127.0.0.25:"), lines.get(0));
            assertTrue(lines.get(0).contains("no answer within 3 s"), lines.get(0));
            assertTrue(lines.get(1).startsWith("gpu-1  up"), lines.get(1));
            assertTrue(lines.get(2).startsWith("gpu-3  DOWN") && lines.get(2).contains("refused"), lines.get(2));
            assertTrue(lines.get(3).startsWith("gpu-2  up"), lines.get(3));
        } finally {
            third.startDaemon();
        }
    }

    @Test
    @Order(3)
    void jumpsThroughOneServerToAnother() throws Exception {
        servers("gpu-2-via-1");
        Launcher.Run run = Launcher.run(env(), "--once", "--remote", "--json");
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals("NVIDIA RTX A6000", byNode(run.stdout()).get("gpu-2-via-1").at("/gpus/0/name").asText());
    }

    @Test
    @Order(4)
    void unknownHostKeyIsRefusedUntilTrustedAndAChangedKeyAlways() throws Exception {
        servers("gpu-1");
        Path knownHosts = home.resolve(".ssh/known_hosts");
        String original = Files.readString(knownHosts);
        OpenSshHost first = HOSTS.get(0);
        Files.writeString(knownHosts, original.lines().filter(line -> !line.contains(first.address()))
                .collect(Collectors.joining("\n", "", "\n")));

        Launcher.Run refused = Launcher.run(env(), "--once", "--remote", "--json");
        assertEquals(1, refused.exitCode());
        String error = byNode(refused.stdout()).get("gpu-1").get("error").asText();
        assertTrue(error.contains("not known"), error);

        Launcher.Run trusted = Launcher.run(env(), "trust", "gpu-1", "--yes");
        assertEquals(0, trusted.exitCode(), trusted.stderr());
        String fingerprint = trusted.stderr().lines().findFirst().orElseThrow();
        String expected = fingerprintOf(first);
        assertTrue(fingerprint.contains(expected), fingerprint + " vs " + expected);
        assertEquals(0, Launcher.run(env(), "--once", "--remote", "--json").exitCode());

        // Another key recorded for the same host: refused even with accept-new.
        String[] hostKey = first.knownHostsLine().split(" ");
        Files.writeString(knownHosts, original.replace(hostKey[2], otherKey()));
        Map<String, String> acceptNew = new java.util.HashMap<>(env());
        acceptNew.put("NVIDB_HOST_KEY_POLICY", "accept-new");
        Launcher.Run changed = Launcher.run(acceptNew, "--once", "--remote", "--json");
        assertEquals(1, changed.exitCode());
        assertTrue(byNode(changed.stdout()).get("gpu-1").get("error").asText().contains("CHANGED"), changed.stdout());
        Files.writeString(knownHosts, original);
    }

    @Test
    @Order(5)
    void configErrorNamesFileAndLineAndChangesNothing() throws Exception {
        Path config = home.resolve(".nvidb/config.yml");
        Files.writeString(config, "servers:\n  - hostname: gpu-1\n    nicname: first\n");
        Launcher.Run run = Launcher.run(env(), "--once", "--remote");
        assertEquals(2, run.exitCode());
        assertEquals("", run.stdout());
        assertEquals("nvidb: ~/.nvidb/config.yml:3: unknown key 'nicname' in server 'gpu-1' (did you mean 'nickname'?)",
                run.stderr().lines().findFirst().orElseThrow());
        assertFalse(run.stderr().contains("Exception"), run.stderr());
    }

    private static String fingerprintOf(OpenSshHost host) throws Exception {
        Path file = work.resolve(host.name() + ".pub");
        Files.writeString(file, host.hostPublicKey() + "\n");
        Process process = new ProcessBuilder("ssh-keygen", "-lf", file.toString()).start();
        String line = new String(process.getInputStream().readAllBytes()).strip();
        process.waitFor();
        return line.split(" ")[1];
    }

    private static String otherKey() throws Exception {
        Path file = work.resolve("other_key");
        Files.deleteIfExists(file);
        Files.deleteIfExists(Path.of(file + ".pub"));
        OpenSshHost.run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", file.toString());
        return Files.readString(Path.of(file + ".pub")).split(" ")[1];
    }
}
