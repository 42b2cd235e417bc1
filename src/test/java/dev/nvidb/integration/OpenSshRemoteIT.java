package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code remote:} end to end: the built {@code bin/nvidb} on a client (root here) forwards queue
 * commands to a queue host that is a real OpenSSH {@code sshd} logging in as another Unix user,
 * who runs the built jar against a queue of its own (its own queue.yml names a remote that does
 * not answer: the far side must never forward again). Output and exit codes are those of the
 * same command run there directly; stdin passes through; a missing program is one clear line;
 * a client that goes away ends the far command; on a terminal the far command gets a pty.
 */
class OpenSshRemoteIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String USER = "nvidbt30";
    private static OpenSshHost queueHost;
    private static Path home;
    private static Path install;
    private static Path farNvidb;
    private static Path fakeNvidb;

    @BeforeAll
    static void startTheQueueHost() throws Exception {
        Prerequisites.requireOpenSsh();
        Path work = Files.createTempDirectory("nvidb-openssh-remote");
        home = work.resolve("home");
        Path key = OpenSshHost.clientHome(home);
        queueHost = OpenSshHost.start("fwd-q", "127.0.0.41", USER, work, key,
                Path.of(System.getProperty("nvidb.fake.nvml.dir")), true);
        Files.writeString(key.getParent().resolve("config"), "Host queue-host\n  HostName " + queueHost.address()
                + "\n  Port " + queueHost.port() + "\n  User " + USER + "\n");
        Files.writeString(key.getParent().resolve("known_hosts"), queueHost.knownHostsLine() + "\n");

        Path build = Path.of(System.getProperty("nvidb.build.dir", "target"));
        install = Files.createDirectories(OpenSshHost.SHARED.resolve("remote-it"));
        Files.copy(build.resolve("nvidb.jar"), install.resolve("nvidb.jar"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Names itself as bin/nvidb does, so the keeper it installs can start it again.
        farNvidb = script(install.resolve("nvidb"), "#!/bin/sh\nLC_ALL=C.UTF-8; export LC_ALL\nNVIDB_LAUNCHER='"
                + install.resolve("nvidb") + "'; export NVIDB_LAUNCHER\nexec '" + java
                + "' -XX:TieredStopAtLevel=1 -jar '" + install.resolve("nvidb.jar") + "' \"$@\"\n");
        fakeNvidb = script(install.resolve("fake-nvidb"), """
                #!/bin/sh
                if [ "$1 $2 $3" = "queue keeper ensure" ]; then echo "keeper: cannot start (fake)"; exit 1; fi
                if [ "$2" = "tty" ]; then tty; stty size; exit 0; fi
                if [ "$2" = "nap" ]; then exec sleep 301; fi
                cat
                exit 7
                """);
        OpenSshHost.run("chmod", "-R", "a+rX", install.toString());

        Path far = queueHost.home().resolve(".nvidb");
        Files.createDirectories(far);
        Files.writeString(far.resolve("queue.yml"), """
                queue:
                  local_node_name: qh
                  tick_min_interval: 0
                  kill_grace_seconds: 1
                remote:
                  host: 127.0.0.1
                  port: 1
                """);
        OpenSshHost.run("chown", "-R", USER + ":", far.toString());
        OpenSshHost.run("chmod", "700", far.toString());
        OpenSshHost.run("chmod", "600", far.resolve("queue.yml").toString());
    }

    @AfterAll
    static void stopTheQueueHost() throws Exception {
        if (queueHost != null) {
            queueHost.close();
        }
        if (install != null) {
            OpenSshHost.run("rm", "-rf", install.toString());
        }
    }

    private static Path script(Path file, String text) throws IOException {
        Files.writeString(file, text);
        file.toFile().setExecutable(true, false);
        return file;
    }

    /** The client's queue.yml: forward to the queue host's alias with this nvidb. */
    private static Map<String, String> forwardingWith(Path nvidb, String keeper) throws IOException {
        Path dir = Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(dir.resolve("queue.yml"), "remote:\n  host: queue-host\n  nvidb: " + nvidb
                + "\n  keeper: " + keeper + "\n");
        Map<String, String> env = new HashMap<>(Launcher.localEnvironment(home));
        return env;
    }

    private record Ran(int code, byte[] out, String err) {
        String stdout() {
            return new String(out, StandardCharsets.UTF_8);
        }
    }

    /** {@code command} on the client (bin/nvidb's build settings) with stdin from {@code stdin}. */
    private static Process start(Map<String, String> env, File stdin, List<String> command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(env);
        Path project = Path.of(System.getProperty("nvidb.project.dir", "."));
        builder.environment().put("NVIDB_NO_BUILD", "1");
        builder.environment().put("NVIDB_BUILD_DIR", System.getProperty("nvidb.build.dir", project.resolve("target").toString()));
        // No file: a pipe kept open until the process ends (script(1) ends early at end of input).
        return builder.redirectInput(stdin == null ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.from(stdin)).start();
    }

    private static List<String> nvidb(String... args) {
        Path project = Path.of(System.getProperty("nvidb.project.dir", "."));
        List<String> command = new ArrayList<>(List.of(project.resolve("bin/nvidb").toString()));
        command.addAll(List.of(args));
        return command;
    }

    private static Ran finish(Process process) throws Exception {
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("did not finish in 120 s");
        }
        return new Ran(process.exitValue(), out.join(), new String(err.join(), StandardCharsets.UTF_8));
    }

    private static byte[] read(InputStream stream) {
        try (stream) {
            return stream.readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }

    private static Ran client(Map<String, String> env, String... args) throws Exception {
        return finish(start(env, new File("/dev/null"), nvidb(args)));
    }

    /** The same command run on the queue host directly, as its user (no SSH), against its queue. */
    private static Ran onTheQueueHost(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("runuser", "-u", USER, "--", "env", "-i",
                "HOME=" + queueHost.home(), "PATH=/usr/local/bin:/usr/bin:/bin", "NVIDB_FORWARDED=1", farNvidb.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(queueHost.home().toFile());
        return finish(builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start());
    }

    private static int pgrep(String pattern) throws Exception {
        return OpenSshHost.exitCode("pgrep", "-u", USER, "-f", pattern);
    }

    @Test
    void forwardedCommandsGiveTheQueueHostsOutputAndExitCodes() throws Exception {
        Map<String, String> env = forwardingWith(farNvidb, "off");
        Ran submitted = client(env, "job", "submit", "--gpus", "0", "--wait", "--json", "--", "echo from $(whoami)");
        assertEquals(0, submitted.code(), submitted.err());
        JsonNode job = JSON.readTree(submitted.stdout()).at("/jobs/0");
        assertEquals("completed", job.get("state").asText(), submitted.stdout());
        String id = job.get("id").asText();
        assertEquals("from " + USER + "\n", client(env, "job", "logs", id).stdout());
        for (String[] command : new String[][] {{"job", "wait", id}, {"queue", "status", "--json", "--no-tick"},
                {"queue", "alerts", "--no-tick"}, {"job", "ls", "--json", "--no-tick"}}) {
            Ran far = client(env, command);
            Ran here = onTheQueueHost(command);
            assertEquals(here.code(), far.code(), String.join(" ", command) + ": " + far.err() + " / " + here.err());
            assertEquals(here.stdout(), far.stdout(), String.join(" ", command));
        }
        Ran failed = client(env, "job", "submit", "--gpus", "0", "--wait", "--", "exit 3");
        assertEquals(1, failed.code(), failed.err());
    }

    /**
     * The issue's whole story: the queue host has nothing but nvidb; a client with {@code remote:}
     * submits (the keeper is installed and started there in the same round trip), goes away, and
     * afterwards finds every failure in the queue host's {@code alerts.log}, delivered by the
     * keeper's daemon while nobody was connected, and in {@code queue alerts}.
     */
    @Test
    void aClientSubmitsWalksAwayAndFindsEveryFailureInTheAlertsLogAndQueueAlerts() throws Exception {
        Map<String, String> env = forwardingWith(farNvidb, "ensure");
        Path far = queueHost.home().resolve(".nvidb");
        Path alertsLog = far.resolve("alerts.log");
        for (String left : List.of("queue-keeper.sh", "queue-keeper.pid", "queue-keeper.lock", "queue-keeper.log",
                "queue-keeper.log.1", "alerts.log")) {
            Files.deleteIfExists(far.resolve(left)); // the queue host's home outlives a run: start with no keeper
        }
        try {
            Ran bad = client(env, "job", "submit", "--gpus", "0", "--json", "-n", "doomed", "--",
                    "echo no such dataset >&2; exit 3");
            assertEquals(0, bad.code(), bad.err());
            assertTrue(bad.err().contains("installed the shell keeper and started it"), bad.err());
            long doomed = JSON.readTree(bad.stdout()).at("/job/id").asLong();
            Ran good = client(env, "job", "submit", "--gpus", "0", "--json", "-n", "fine", "--", "true");
            assertEquals(0, good.code(), good.err());
            assertEquals("", good.err(), "a keeper that is up is ensured silently");
            long fine = JSON.readTree(good.stdout()).at("/job/id").asLong();

            // Nobody is connected now: only the keeper's daemon can settle the job and deliver its alert.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            List<JsonNode> lines = List.of();
            while (lines.stream().noneMatch(line -> line.path("job_id").asLong() == doomed)) {
                assertTrue(System.nanoTime() < deadline, "no alert for job " + doomed + " in " + alertsLog + ": " + lines);
                LockSupport.parkNanos(200_000_000L);
                lines = Files.exists(alertsLog) ? Files.readAllLines(alertsLog).stream().map(OpenSshRemoteIT::parse).toList()
                        : List.of();
            }
            JsonNode alert = lines.stream().filter(line -> line.path("job_id").asLong() == doomed).findFirst().orElseThrow();
            assertEquals("job_failed", alert.path("kind").asText(), alert.toString());
            assertTrue(alert.path("detail").asText().contains("no such dataset"), alert.toString());
            assertTrue(alert.path("id").asLong() > 0, "every delivery carries the alert id");
            assertTrue(lines.stream().noneMatch(line -> line.path("job_id").asLong() == fine), "a job that worked raises nothing");

            Ran alerts = client(env, "queue", "alerts", "--json");
            assertEquals(1, alerts.code(), "open alerts: exit 1; " + alerts.err());
            assertTrue(JSON.readTree(alerts.stdout()).path("alerts").findValues("job_id").stream()
                    .anyMatch(id -> id.asLong() == doomed), alerts.stdout());
            assertEquals(0, client(env, "queue", "keeper", "status").code(), "the keeper is up on the queue host");
            assertEquals("completed", JSON.readTree(client(env, "job", "show", String.valueOf(fine), "--json").stdout())
                    .at("/job/state").asText());
        } finally {
            Ran stopped = client(env, "queue", "keeper", "stop");
            assertEquals(0, stopped.code(), stopped.err());
        }
        assertEquals(1, pgrep("queue-keeper.sh"), "the keeper stopped");
    }

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new AssertionError("alerts.log holds a line that is not JSON: " + line, e);
        }
    }

    @Test
    void stdinPassesThroughAndTheKeeperStepWritesOnlyToStderr() throws Exception {
        Map<String, String> env = forwardingWith(fakeNvidb, "ensure");
        byte[] input = new byte[200_000];
        for (int i = 0; i < input.length; i++) {
            input[i] = (byte) (i * 13 + i / 5);
        }
        Path file = Files.write(home.resolve("input.bin"), input);
        Ran ran = finish(start(env, file.toFile(), nvidb("job", "result", "1", "--set", "-")));
        assertEquals(7, ran.code(), ran.err());
        assertArrayEquals(input, ran.out());
        assertTrue(ran.err().startsWith("keeper: cannot start (fake)\nnvidb: warning: '" + fakeNvidb + "' on "), ran.err());
        assertEquals(2, ran.err().lines().count(), "the keeper's line and the warning about exit 7, nothing else: " + ran.err());
    }

    @Test
    void aMissingProgramOnTheQueueHostIsOneClearLine() throws Exception {
        Ran ran = client(forwardingWith(Path.of("/opt/nowhere/nvidb"), "ensure"), "job", "ls");
        assertEquals(2, ran.code(), ran.err());
        assertTrue(ran.err().startsWith("nvidb: the queue host " + USER + "@" + queueHost.address())
                || ran.err().startsWith("nvidb: the queue host queue-host"), ran.err());
        assertTrue(ran.err().contains("'/opt/nowhere/nvidb'") && ran.err().contains("remote: nvidb: /abs/path"), ran.err());
        assertEquals("", ran.stdout());
    }

    @Test
    void theFarCommandEndsWhenTheClientGoesAway() throws Exception {
        Map<String, String> env = forwardingWith(farNvidb, "off");
        Ran submitted = client(env, "job", "submit", "--gpus", "0", "--json", "--", "exec sleep 300");
        assertEquals(0, submitted.code(), submitted.err());
        String id = JSON.readTree(submitted.stdout()).at("/job/id").asText();
        Process waiting = start(env, new File("/dev/null"), nvidb("job", "wait", id));
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (pgrep("nvidb.jar job wait " + id) != 0) {
                assertTrue(System.nanoTime() < deadline && waiting.isAlive(), "the forwarded wait runs on the queue host");
                LockSupport.parkNanos(100_000_000L);
            }
            waiting.destroy();   // SIGTERM, as when the terminal closes
            assertTrue(waiting.waitFor(30, TimeUnit.SECONDS));
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (pgrep("nvidb.jar job wait " + id) == 0) {
                assertTrue(System.nanoTime() < deadline, "the far 'job wait' still runs after its client went away");
                LockSupport.parkNanos(100_000_000L);
            }
        } finally {
            waiting.destroyForcibly();
            client(env, "job", "cancel", id);
        }
    }

    @Test
    void onATerminalTheFarCommandGetsAPtyOfThisSize() throws Exception {
        Map<String, String> env = forwardingWith(fakeNvidb, "off");
        env.put("COLUMNS", "101");
        env.put("LINES", "31");
        String line = String.join(" ", nvidb("job", "tty").stream().map(word -> "'" + word + "'").toList());
        Ran onTerminal = finish(start(env, null, List.of("script", "-qec", line, "/dev/null")));
        assertEquals(0, onTerminal.code(), onTerminal.stdout() + onTerminal.err());
        assertTrue(onTerminal.stdout().contains("/dev/pts/") && onTerminal.stdout().contains("31 101"), onTerminal.stdout());
        Ran piped = client(env, "job", "tty");
        assertTrue(piped.stdout().startsWith("not a tty"), piped.stdout());
    }

    /** On a terminal, Ctrl-C is a key for the far program: it interrupts it there, and its end comes back. */
    @Test
    void ctrlCOnATerminalInterruptsTheFarCommand() throws Exception {
        Map<String, String> env = forwardingWith(fakeNvidb, "off");
        String line = String.join(" ", nvidb("job", "nap").stream().map(word -> "'" + word + "'").toList())
                + "; echo exit=$?";
        Process onTerminal = start(env, null, List.of("script", "-qec", line, "/dev/null"));
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (pgrep("sleep 301") != 0) {
                assertTrue(System.nanoTime() < deadline && onTerminal.isAlive(), "the far command runs");
                LockSupport.parkNanos(100_000_000L);
            }
            onTerminal.getOutputStream().write(3);
            onTerminal.getOutputStream().flush();
            CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> read(onTerminal.getInputStream()));
            assertTrue(onTerminal.waitFor(30, TimeUnit.SECONDS), "the client ends after Ctrl-C");
            assertTrue(new String(out.join(), StandardCharsets.UTF_8).contains("exit=130"));
            assertEquals(1, pgrep("sleep 301"), "the far command ended");
        } finally {
            onTerminal.destroyForcibly();
        }
    }
}
