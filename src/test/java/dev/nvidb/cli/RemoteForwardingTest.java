package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.remote.ForwardedLine;
import dev.nvidb.remote.TerminalControl;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code remote:} in queue.yml: a queue command line runs on the queue host (an SSH test host
 * running real commands) with the real nvidb there, its output and exit code unchanged, and
 * stdin passed through; monitor commands, help and {@code --local} stay here; the far side
 * never forwards again (its own queue.yml names a host that does not answer). Small fake
 * programs stand in for nvidb where the point is the transport (stdin, stderr, the keeper step).
 */
class RemoteForwardingTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static SshHarness harness;
    private static TestHost queueHost;
    private static Path farNvidb;

    @TempDir
    Path client;

    /** What one in-process run wrote (bytes) and returned. */
    private record Ran(int code, byte[] stdoutBytes, String stderr) {
        String stdout() {
            return new String(stdoutBytes, StandardCharsets.UTF_8);
        }
    }

    @BeforeAll
    static void startTheQueueHost() throws IOException {
        harness = new SshHarness();
        queueHost = harness.addHost("qhost");
        Path home = queueHost.home();
        Files.createDirectories(home.resolve(".nvidb"));
        // The far side's own remote: must be ignored there (forwarding again would fail: nothing listens).
        Files.writeString(home.resolve(".nvidb/queue.yml"), """
                queue:
                  local_node_name: here
                  tick_min_interval: 0
                remote:
                  host: 127.0.0.1
                  port: 1
                """);
        Files.setPosixFilePermissions(home.resolve(".nvidb/queue.yml"), PosixFilePermissions.fromString("rw-------"));
        String jvm = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        farNvidb = executable(home.resolve("bin/nvidb"), "#!/bin/sh\nexec " + dev.nvidb.agent.ShellQuote.join(java.util.List.of(jvm, "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), "dev.nvidb.cli.Main")) + " \"$@\"\n");
    }

    @AfterAll
    static void stopTheQueueHost() {
        if (harness != null) {
            harness.close();
        }
    }

    private static Path executable(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }

    /** A client home (ssh config for the test hosts) whose queue.yml holds {@code queueYml}; its environment. */
    private Map<String, String> clientWith(String queueYml) throws IOException {
        harness.writeClientHome(client);
        Path dir = Files.createDirectories(client.resolve(".nvidb"));
        Files.writeString(dir.resolve("queue.yml"), queueYml);
        Files.setPosixFilePermissions(dir.resolve("queue.yml"), PosixFilePermissions.fromString("rw-------"));
        return Map.of("HOME", client.toString(), "NVIDB_HOME", dir.toString());
    }

    private Map<String, String> forwardingTo(String nvidb, String more) throws IOException {
        return clientWith("remote:\n  host: qhost\n  nvidb: " + nvidb + "\n  keeper: off\n" + more);
    }

    private static Ran run(Map<String, String> env, byte[] stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintWriter outWriter = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
        PrintWriter errWriter = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
        Streams streams = new Streams(new ByteArrayInputStream(stdin), out, err, TerminalControl.NONE);
        int code = Cli.run(new Context(new HashMap<>(env), outWriter, errWriter, false, streams), args);
        outWriter.flush();
        errWriter.flush();
        return new Ran(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    private static Ran run(Map<String, String> env, String... args) {
        return run(env, new byte[0], args);
    }

    /**
     * The same command run on the queue host itself, as a process with that host's environment
     * (its HOME, PATH, locale), against its queue, as the forwarded one runs there.
     */
    private static Ran onTheQueueHost(String... args) throws IOException, InterruptedException {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(farNvidb.toString()));
        command.addAll(java.util.List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(queueHost.home().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(queueHost.environment());
        builder.environment().put(ForwardedLine.FORWARDED, "1");
        Process process = builder.start();
        java.util.concurrent.CompletableFuture<byte[]> err = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return process.getErrorStream().readAllBytes();
            } catch (IOException e) {
                return new byte[0];
            }
        });
        byte[] out = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS));
        return new Ran(process.exitValue(), out, new String(err.join(), StandardCharsets.UTF_8));
    }

    @Test
    void queueCommandsRunOnTheQueueHostWithTheSameOutputAndExitCodes() throws Exception {
        Map<String, String> env = forwardingTo(farNvidb.toString(), "");
        Ran submitted = run(env, "job", "submit", "--gpus", "0", "--wait", "--json", "--", "echo out; echo err >&2");
        assertEquals(0, submitted.code(), submitted.stderr());
        JsonNode job = JSON.readTree(submitted.stdout()).at("/jobs/0");
        assertEquals("completed", job.get("state").asText(), submitted.stdout());
        String id = job.get("id").asText();
        assertFalse(Files.exists(client.resolve(".nvidb/queue.db")), "the client opens no database of its own");

        for (String[] command : new String[][] {
                {"job", "logs", id}, {"job", "wait", id}, {"queue", "status", "--json", "--no-tick"},
                {"job", "ls", "--json", "--no-tick"}, {"queue", "alerts", "--no-tick"}, {"job", "show", "999", "--no-tick"}}) {
            Ran far = run(env, command);
            Ran here = onTheQueueHost(command);
            assertEquals(here.code(), far.code(), String.join(" ", command) + ": " + far.stderr());
            assertEquals(here.stdout(), far.stdout(), String.join(" ", command));
        }

        Ran failed = run(env, "--json", "job", "submit", "--gpus", "0", "--wait", "--", "exit 3");
        assertEquals(1, failed.code(), failed.stderr());
        assertEquals("failed", JSON.readTree(failed.stdout()).at("/jobs/0/state").asText());
    }

    @Test
    void everyWordArrivesExactly() throws Exception {
        Map<String, String> env = forwardingTo(farNvidb.toString(), "");
        String name = "it's \"quoted\" $HOME `id` \\ tab\t* ünïcødé 🚀";
        Ran submitted = run(env, "job", "submit", "--no-tick", "--gpus", "0", "--json", "--name", name, "--note",
                "line one\nline two", "--", "printf", "%s\\n", "$USER", "a b", "'", ";", "");
        assertEquals(0, submitted.code(), submitted.stderr());
        String id = JSON.readTree(submitted.stdout()).at("/job/id").asText();
        JsonNode shown = JSON.readTree(onTheQueueHost("job", "show", id, "--no-tick", "--json").stdout()).at("/job");
        assertEquals(name, shown.get("name").asText());
        assertEquals("line one\nline two", shown.get("notes").asText());
        assertEquals(dev.nvidb.agent.ShellQuote.join(java.util.List.of("printf", "%s\\n", "$USER", "a b", "'", ";", "")), shown.get("command").asText());
    }

    @Test
    void stdinStdoutAndStderrPassThroughAsBytesAndTheKeeperStepStaysOnStderr() throws Exception {
        Path fake = executable(queueHost.home().resolve("bin/fake-nvidb"), """
                #!/bin/sh
                if [ "$1 $2 $3" = "queue keeper ensure" ]; then
                  echo "keeper: cannot start (fake)"; exit 1
                fi
                cat
                printf 'forwarded=%s home=%s args=%s|' "$NVIDB_FORWARDED" "$NVIDB_HOME" "$#" >&2
                for a in "$@"; do printf '[%s]' "$a" >&2; done
                exit 7
                """);
        Map<String, String> env = clientWith("remote:\n  host: qhost\n  nvidb: " + fake + "\n  nvidb_home: ~/elsewhere\n");
        byte[] input = new byte[300_000];
        for (int i = 0; i < input.length; i++) {
            input[i] = (byte) (i * 31 + i / 7);
        }
        Ran ran = run(env, input, "job", "result", "7", "--set", "-");
        assertEquals(7, ran.code(), "the far exit code, not the keeper's: " + ran.stderr());
        assertArrayEquals(input, ran.stdoutBytes(), "stdin reached the far command and its stdout came back byte for byte");
        assertTrue(ran.stderr().startsWith("keeper: cannot start (fake)\n"), "the keeper's line is on stderr: " + ran.stderr());
        assertTrue(ran.stderr().contains("forwarded=1 home=" + queueHost.home() + "/elsewhere args=5|[job][result][7][--set][-]"),
                ran.stderr());
        assertTrue(ran.stderr().contains("\nnvidb: warning: '" + fake + "' on qhost (") && ran.stderr().endsWith(
                ") exited 7, a code nvidb never uses: is it nvidb? (remote: nvidb in queue.yml)\n"),
                "a program that is not nvidb is named: " + ran.stderr());
    }

    @Test
    void aSubmittedScriptIsShippedFromThisMachine() throws Exception {
        Map<String, String> env = forwardingTo(farNvidb.toString(), "");
        Path script = client.resolve("only-here.sh");
        Files.writeString(script, "echo \"from the script: $((1 + 2)) ünï\"\n");
        Ran submitted = run(env, "job", "submit", "--gpus", "0", "--script", script.toString(), "--json", "--wait");
        assertEquals(0, submitted.code(), submitted.stderr());
        String id = JSON.readTree(submitted.stdout()).at("/jobs/0/id").asText();
        assertEquals("from the script: 3 ünï\n", onTheQueueHost("job", "logs", id).stdout());
        Ran both = run(env, "job", "submit", "--script", script.toString(), "--", "true");
        assertEquals(2, both.code(), both.stderr());
        assertTrue(both.stderr().startsWith("nvidb: give either --script FILE or a command, not both"), both.stderr());
    }

    @Test
    void localHelpAndMonitorCommandsStayHere() throws Exception {
        Map<String, String> env = clientWith("queue:\n  local_node_name: laptop\nremote:\n  host: qhost\n  nvidb: /nowhere/nvidb\n");
        int sessions = queueHost.sessionsOpened();
        Ran local = run(env, "--local", "job", "ls", "--json", "--no-tick");
        assertEquals(0, local.code(), local.stderr());
        assertEquals(0, JSON.readTree(local.stdout()).get("count").asInt());
        assertEquals(0, run(env, "job", "--local", "ls", "--no-tick").code());
        assertEquals(0, run(env, "queue", "status", "--no-tick", "--local").code());
        assertEquals(0, run(env, "job", "submit", "--help").code());
        assertEquals(0, run(env, "info").code());
        assertEquals(sessions, queueHost.sessionsOpened(), "nothing went to the queue host");
        assertTrue(Files.exists(client.resolve(".nvidb/queue.db")), "--local used this machine's queue");
    }

    @Test
    void aMissingOrWrongRemoteProgramIsOneClearLine() throws Exception {
        for (String nvidb : new String[] {"/nowhere/bin/nvidb", "nvidb-not-on-path", queueHost.home().toString()}) {
            Ran ran = run(forwardingTo(nvidb, ""), "job", "ls");
            assertEquals(2, ran.code(), nvidb + ": " + ran.stderr());
            String last = ran.stderr().lines().filter(line -> line.startsWith("nvidb: ")).findFirst().orElse("");
            assertTrue(last.contains("qhost") && last.contains("'" + nvidb + "'"), ran.stderr());
            assertTrue(ran.stderr().contains("remote: nvidb: /abs/path/to/nvidb"), ran.stderr());
            assertEquals("", ran.stdout());
        }
        Ran json = run(forwardingTo("/nowhere/bin/nvidb", ""), "job", "ls", "--json");
        assertEquals("config", JSON.readTree(json.stdout()).at("/error/type").asText(), json.stdout());
    }

    @Test
    void anUnreachableQueueHostIsOneLineAndExitOne() throws Exception {
        TestHost gone = harness.addHost("gone");
        gone.stop();
        Map<String, String> env = clientWith("remote:\n  host: gone\n  keeper: off\n");
        Ran ran = run(env, "queue", "status", "--json");
        assertEquals(1, ran.code(), ran.stderr());
        assertTrue(ran.stderr().startsWith("nvidb: gone"), ran.stderr());
        assertFalse(ran.stderr().contains("\tat "), ran.stderr());
        assertEquals("ssh", JSON.readTree(ran.stdout()).at("/error/type").asText(), ran.stdout());
    }
}
