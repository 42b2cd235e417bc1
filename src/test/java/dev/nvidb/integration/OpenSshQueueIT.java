package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.testing.FakeGpuState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The queue as a new user meets it: the built {@code bin/nvidb} submitting to real OpenSSH
 * servers (Debian's sshd, each logging in as its own user) with fake GPUs. Jobs run as the
 * login user, detached from the SSH session, and report back on later commands.
 */
class OpenSshQueueIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<OpenSshHost> HOSTS = new ArrayList<>();
    private static Path home;

    @BeforeAll
    static void startHosts() throws Exception {
        Prerequisites.requireOpenSsh();
        Path work = Files.createTempDirectory("nvidb-openssh-queue");
        home = work.resolve("home");
        Path key = OpenSshHost.clientHome(home);
        Path ssh = key.getParent();
        Path fake = Path.of(System.getProperty("nvidb.fake.nvml.dir"));
        HOSTS.add(OpenSshHost.start("q-1", "127.0.0.31", "nvidbt5", work, key, fake, true));
        HOSTS.add(OpenSshHost.start("q-2", "127.0.0.32", "nvidbt6", work, key, fake, true));
        HOSTS.add(OpenSshHost.start("q-nopy", "127.0.0.33", "nvidbt7", work, key, fake, false));
        StringBuilder config = new StringBuilder();
        StringBuilder known = new StringBuilder();
        for (OpenSshHost host : HOSTS) {
            config.append("Host ").append(host.name()).append("\n  HostName ").append(host.address())
                    .append("\n  Port ").append(host.port()).append("\n  User ").append(host.username()).append('\n');
            known.append(host.knownHostsLine()).append('\n');
            FakeGpuState.create().gpu(0, "NVIDIA L40S", 46068).uuid(0, "GPU-" + host.name()).used(0, 0)
                    .writeTo(host.gpuStateFile());
        }
        Files.writeString(ssh.resolve("config"), config.toString());
        Files.writeString(ssh.resolve("known_hosts"), known.toString());
        Path nvidb = Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(nvidb.resolve("queue.yml"), """
                servers:
                  - hostname: q-1
                  - hostname: q-2
                  - hostname: q-nopy
                queue:
                  tick_min_interval: 0
                  kill_grace_seconds: 1
                """);
    }

    @AfterAll
    static void stopHosts() {
        HOSTS.forEach(OpenSshHost::close);
    }

    private static Map<String, String> env() {
        return Map.of("HOME", home.toString(), "PATH", System.getenv("PATH"));
    }

    private static JsonNode json(Launcher.Run run) throws Exception {
        return JSON.readTree(run.stdout());
    }

    @Test
    void submitWaitAndReadTheOutput() throws Exception {
        Launcher.Run run = Launcher.run(env(), "job", "submit", "--wait", "--json", "-n", "hello", "--",
                "echo hello from $(whoami) on $NVIDB_NODE");
        assertEquals(0, run.exitCode(), run.stderr());
        JsonNode job = json(run).at("/jobs/0");
        assertEquals("completed", job.get("state").asText());
        String node = job.get("node").asText();
        assertTrue(node.equals("q-1") || node.equals("q-2"), "never the node without python3: " + node);
        Launcher.Run logs = Launcher.run(env(), "job", "logs", job.get("id").asText());
        String user = node.equals("q-1") ? "nvidbt5" : "nvidbt6";
        assertEquals("hello from " + user + " on " + node + "\n", logs.stdout());
        // The waiting submit left its agents to end with its SSH connections, not with a close each.
        awaitNoAgents("nvidbt5");
        awaitNoAgents("nvidbt6");
    }

    /** Waits (up to 15 s: a submit ticker lingers 3 s) until no agent of {@code user} runs on its node. */
    private static void awaitNoAgents(String user) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
        while (OpenSshHost.exitCode("pgrep", "-u", user, "-f", "b=sys.stdin.buffer") == 0) {
            assertTrue(System.nanoTime() < deadline, "an agent of " + user + " still runs after its command ended");
            Thread.sleep(100);
        }
    }

    @Test
    void failedJobMakesWaitExitOne() throws Exception {
        Launcher.Run run = Launcher.run(env(), "job", "submit", "--wait", "--", "echo broken >&2; exit 4");
        assertEquals(1, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().contains("failed exit 4"), run.stdout());
    }

    @Test
    void cancelKillsTheRunningJob() throws Exception {
        Launcher.Run submitted = Launcher.run(env(), "job", "submit", "--json", "--", "exec sleep 300");
        assertEquals(0, submitted.exitCode(), submitted.stderr());
        String id = json(submitted).at("/job/id").asText();
        // The submit returns once the job is recorded; the background submit ticker starts it
        // within seconds. Poll the event log for its process.
        long startBy = System.nanoTime() + 20_000_000_000L;
        List<JsonNode> pids = List.of();
        while (pids.isEmpty()) {
            assertTrue(System.nanoTime() < startBy, "job " + id + " did not start within 20 s of its submit");
            java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
            Launcher.Run events = Launcher.run(env(), "queue", "events", "--json", "--job", id, "--no-tick");
            pids = json(events).findValues("pid");
        }
        long pid = pids.get(0).asLong();
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the job runs");
        Launcher.Run cancelled = Launcher.run(env(), "job", "cancel", id);
        assertEquals(0, cancelled.exitCode(), cancelled.stderr());
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            assertTrue(System.nanoTime() < deadline, "job process " + pid + " still alive after cancel");
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
        }
        JsonNode status = json(Launcher.run(env(), "queue", "status", "--json", "--no-tick"));
        assertEquals(0, status.get("pending_reaps").asInt());
    }

    @Test
    void nodeWithoutPythonIsReportedAndNotScheduled() throws Exception {
        JsonNode nodes = json(Launcher.run(env(), "queue", "nodes", "--json"));
        for (JsonNode node : nodes.get("nodes")) {
            if (node.get("node").asText().equals("q-nopy")) {
                assertEquals("down", node.get("status").asText(), node.toString());
                assertTrue(node.get("last_error").asText().contains("python3"), node.toString());
            } else {
                assertEquals("up", node.get("status").asText(), node.toString());
            }
        }
    }
}
