package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.history.GpuLog;
import dev.nvidb.history.NodeFailure;
import dev.nvidb.history.ProcessSpan;
import dev.nvidb.history.SampleQuery;
import dev.nvidb.history.SampleRow;
import dev.nvidb.history.SessionView;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.FakeGpuState.ProcessKind;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code nvidb log --remote} end to end: the built {@code bin/nvidb} samples two real OpenSSH
 * servers with fake GPUs and a server that accepts connections and never answers, until Ctrl-C
 * (SIGINT), which ends the session cleanly.
 */
class GpuLogIT {

    private static final List<OpenSshHost> HOSTS = new ArrayList<>();
    private static final List<Socket> HUNG_CONNECTIONS = new ArrayList<>();
    private static Path work;
    private static Path home;
    private static ServerSocket hung;
    private static Process userProcess;

    @BeforeAll
    static void startHosts() throws Exception {
        Prerequisites.requireOpenSsh();
        work = Files.createTempDirectory("nvidb-gpulog");
        home = work.resolve("home");
        Path key = OpenSshHost.clientHome(home);
        Path fake = Path.of(System.getProperty("nvidb.fake.nvml.dir"));
        HOSTS.add(OpenSshHost.start("gpu-1", "127.0.0.31", "nvidbt1", work, key, fake, true));
        HOSTS.add(OpenSshHost.start("gpu-2", "127.0.0.32", "nvidbt2", work, key, fake, true));
        hung = new ServerSocket();
        hung.bind(new InetSocketAddress("127.0.0.35", 0));
        Thread acceptor = new Thread(() -> {
            try {
                while (!hung.isClosed()) {
                    HUNG_CONNECTIONS.add(hung.accept());
                }
            } catch (IOException closed) {
                // the test is over
            }
        }, "hung-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        userProcess = new ProcessBuilder("setpriv", "--reuid=nvidbt1", "--regid=nvidbt1", "--clear-groups",
                "sleep", "600").start();
        FakeGpuState.create().driver("550.54.14")
                .gpu(0, "NVIDIA H100 80GB HBM3", 81559).used(0, 30720).util(0, 88)
                .process(0, ProcessKind.COMPUTE, userProcess.pid(), 30000)
                .gpu(1, "NVIDIA H100 80GB HBM3", 81559).used(1, 0)
                .writeTo(HOSTS.get(0).gpuStateFile());
        FakeGpuState.create().gpu(0, "NVIDIA RTX A6000", 49140).used(0, 2048).writeTo(HOSTS.get(1).gpuStateFile());

        StringBuilder config = new StringBuilder();
        StringBuilder known = new StringBuilder();
        for (OpenSshHost host : HOSTS) {
            config.append("Host ").append(host.name()).append("\n  HostName ").append(host.address())
                    .append("\n  Port ").append(host.port()).append("\n  User ").append(host.username()).append('\n');
            known.append(host.knownHostsLine()).append('\n');
        }
        config.append("Host gpu-hung\n  HostName 127.0.0.35\n  Port ").append(hung.getLocalPort()).append('\n');
        Files.writeString(key.getParent().resolve("config"), config.toString());
        Files.writeString(key.getParent().resolve("known_hosts"), known.toString());
        Files.writeString(Files.createDirectories(home.resolve(".nvidb")).resolve("config.yml"), """
                basic:
                  include_local: false
                  connect_timeout: 2
                  command_timeout: 2
                servers:
                  - hostname: gpu-hung
                  - hostname: gpu-1
                  - hostname: gpu-2
                """);
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

    @Test
    void logsEveryServerEverySecondRecordsTheHungOneEndsOnCtrlCAndWebServesIt() throws Exception {
        Path db = work.resolve("history/gpu_log.db");
        Path output = work.resolve("log.out");
        Process log = Launcher.start(Map.of("HOME", home.toString(), "PATH", System.getenv("PATH")), output,
                "log", "--remote", "--interval", "1", "--db-path", db.toString());
        try {
            poll("three samples of each answering server and a failure of the hung one", log, output, () -> {
                if (!Files.exists(db)) {
                    return false;
                }
                try (GpuLog reader = GpuLog.openExisting(db)) {
                    List<SessionView> sessions = reader.sessions();
                    if (sessions.isEmpty()) {
                        return false;
                    }
                    long id = sessions.get(0).id();
                    return count(reader, id, "gpu-1", 0) >= 3 && count(reader, id, "gpu-2", 0) >= 3
                            && !reader.failures(id, "gpu-hung").isEmpty();
                } catch (RuntimeException notYet) {
                    return false;
                }
            });
        } finally {
            new ProcessBuilder("kill", "-INT", Long.toString(log.pid())).start().waitFor();
        }
        assertTrue(log.waitFor(30, TimeUnit.SECONDS), "nvidb log ends on SIGINT");
        String printed = Files.readString(output);
        assertEquals(130, log.exitValue(), printed);
        assertTrue(printed.contains("nvidb log: session 1: sampling 3 nodes (gpu-hung, gpu-1, gpu-2) every 1 s into "),
                printed);
        assertTrue(printed.contains("nvidb log: gpu-hung (127.0.0.35:"), printed);
        assertTrue(printed.contains("(recorded; retrying with back-off)"), printed);
        assertTrue(printed.contains("nvidb log: session 1 ended (interrupted): "), printed);

        try (GpuLog reader = GpuLog.openExisting(db)) {
            SessionView session = reader.sessions().get(0);
            assertNotNull(session.endedAt(), "the session has its end");
            assertEquals("interrupted", session.endReason());
            assertEquals(List.of("gpu-hung", "gpu-1", "gpu-2"), session.nodes());
            List<SampleRow> first = reader.samples(new SampleQuery(session.id(), "gpu-1", null, null, null, 1000));
            long gpu0 = first.stream().filter(row -> row.gpu() == 0).count();
            assertEquals(gpu0, first.stream().filter(row -> row.gpu() == 1).count(), "every sample has both GPUs");
            SampleRow row = first.get(0);
            assertEquals("NVIDIA H100 80GB HBM3", row.gpuName());
            assertEquals(30720L, row.memUsedMb());
            assertEquals(88, row.utilPercent());
            List<NodeFailure> failures = reader.failures(session.id(), "gpu-hung");
            assertTrue(failures.get(0).failure().contains("no answer within"), failures.get(0).failure());
            assertTrue(gpu0 > failures.size(), "the hung server (retried on back-off) held up no other: " + gpu0
                    + " samples of gpu-1, " + failures.size() + " tries of gpu-hung");
            List<ProcessSpan> spans = reader.processes(session.id(), "gpu-1");
            assertEquals(1, spans.size(), spans.toString());
            assertEquals(userProcess.pid(), spans.get(0).pid());
            assertEquals("nvidbt1", spans.get(0).user());
            assertEquals(30000L, spans.get(0).peakMemMb());
            assertTrue(spans.get(0).lastSeen().isAfter(spans.get(0).firstSeen()), "one span over several samples");
        }

        // What the log recorded, through nvidb web's API: the history a browser would chart.
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path webOutput = work.resolve("web.out");
        Process web = Launcher.start(Map.of("HOME", home.toString(), "PATH", System.getenv("PATH")), webOutput,
                "web", "--port", String.valueOf(port), "--db-path", db.toString());
        try {
            String[] url = new String[1];
            poll("the dashboard's address", web, webOutput, () -> {
                try {
                    url[0] = Files.readAllLines(webOutput).stream().filter(line -> line.startsWith("http://"))
                            .findFirst().orElse(null);
                    return url[0] != null;
                } catch (IOException e) {
                    return false;
                }
            });
            String token = url[0].substring(url[0].indexOf("token=") + "token=".length()).strip();
            HttpClient http = HttpClient.newHttpClient();
            JsonNode samples = new ObjectMapper().readTree(http.send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + port + "/api/history/samples?session=1&node=gpu-1&gpu=0"))
                    .header("X-Nvidb-Token", token).build(), HttpResponse.BodyHandlers.ofString()).body());
            assertTrue(samples.get("samples").size() >= 3, samples.toString());
            assertEquals(30720, samples.at("/samples/0/mem_used_mb").asInt());
            assertEquals("NVIDIA H100 80GB HBM3", samples.at("/samples/0/gpu_name").asText());
            JsonNode failures = new ObjectMapper().readTree(http.send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + port + "/api/history/samples?session=1&node=gpu-hung"))
                    .header("X-Nvidb-Token", token).build(), HttpResponse.BodyHandlers.ofString()).body());
            assertTrue(failures.at("/failures/0/failure").asText().contains("no answer within"), failures.toString());
        } finally {
            web.destroy();
            web.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static long count(GpuLog reader, long session, String node, int gpu) {
        return reader.samples(new SampleQuery(session, node, gpu, null, null, 1000)).size();
    }

    private static void poll(String what, Process process, Path output, BooleanSupplier done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!done.getAsBoolean()) {
            if (!process.isAlive()) {
                throw new AssertionError("nvidb log exited " + process.exitValue() + " before " + what + ":\n"
                        + Files.readString(output));
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " within 60 s:\n" + Files.readString(output));
            }
            Thread.sleep(200);
        }
    }
}
