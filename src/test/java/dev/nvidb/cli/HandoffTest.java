package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.nvidb.cli.ClientProcess.Client;

/**
 * Command lines handed to a running daemon ({@link Handoff}, {@link HandoffService}): a real
 * {@code queue daemon} process and real client processes started as {@code bin/nvidb} starts
 * them. Whether a line was handed over is read from the client JVM's own class-loading log: a
 * client that ran the command itself loaded picocli; one that handed it over did not.
 */
class HandoffTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path home;

    private Map<String, String> env;
    private Process daemon;
    private int runs;

    @BeforeEach
    void startDaemon() throws Exception {
        env = new HashMap<>(CliRun.localQueue(home));
        env.put(SubmitTicker.LAUNCHER, "/bin/true");
        env.put("PATH", System.getenv("PATH"));
        ProcessBuilder builder = new ProcessBuilder(java(), "-cp", System.getProperty("java.class.path"),
                "dev.nvidb.cli.Main", "queue", "daemon", "--interval", "3600", "--json")
                .redirectErrorStream(true).redirectOutput(home.resolve("daemon.log").toFile())
                .redirectInput(new File("/dev/null"));
        builder.environment().putAll(env);
        daemon = builder.start();
        Path socket = home.resolve(".nvidb/queue.db.daemon");
        long deadline = System.nanoTime() + LIMIT.toNanos();
        // Serving, and its first pass done (one JSON line per pass): the node is known from here on.
        while (!Files.exists(socket) || read(home.resolve("daemon.log")).lines().noneMatch(line -> line.startsWith("{"))) {
            assertTrue(System.nanoTime() < deadline, "the daemon never served its first pass: " + read(home.resolve("daemon.log")));
            Thread.sleep(50); // a poll with a deadline
        }
    }

    @AfterEach
    void stopDaemon() throws Exception {
        daemon.destroyForcibly().waitFor();
        SubmitExitCodeTest.awaitDetachedJobsUnder(home);
    }

    @Test
    void aHandedStatusPrintsWhatTheCommandPrintsInItsOwnProcess() throws Exception {
        Client handed = client(env, "queue", "status", "--json", "--no-tick");
        assertTrue(handed.handedOver(), handed.classes());
        assertEquals(0, handed.code(), handed.err());
        Client own = client(with("NVIDB_NO_HANDOFF", "1"), "queue", "status", "--json", "--no-tick");
        assertFalse(own.handedOver());
        assertEquals(withoutTimes(own.out()), withoutTimes(handed.out()));
        assertEquals(own.err(), handed.err());
    }

    @Test
    void aHandedSubmitRunsWithTheClientsEnvironmentAndAnswersWithTheJob() throws Exception {
        Map<String, String> mine = with("HANDOFF_MARK", "from-the-client");
        Client submit = client(mine, "job", "submit", "--json", "--gpus", "0", "--", "sh", "-c",
                "echo \"$HANDOFF_MARK\" > \"$NVIDB_JOB_DIR/mark\"");
        assertTrue(submit.handedOver(), submit.classes());
        assertEquals(0, submit.code(), submit.err());
        long id = JSON.readTree(submit.out()).path("job").path("id").asLong();
        assertTrue(id > 0, submit.out());

        Client waited = client(env, "job", "wait", String.valueOf(id));
        assertEquals(0, waited.code(), waited.out() + waited.err());
        JsonNode job = JSON.readTree(client(env, "job", "show", String.valueOf(id), "--json", "--no-tick").out()).path("job");
        Path mark = Path.of(job.path("job_dir").asText().replaceFirst("^~", home.toString()), "mark");
        assertEquals("from-the-client\n", Files.readString(mark), "the job ran with the submitter's environment");
    }

    @Test
    void aFailingHandedCommandKeepsItsExitCodeAndItsLinesOnStderr() throws Exception {
        Client missing = client(env, "job", "show", "999", "--no-tick");
        assertTrue(missing.handedOver(), missing.classes());
        Client own = client(with("NVIDB_NO_HANDOFF", "1"), "job", "show", "999", "--no-tick");
        assertEquals(own.code(), missing.code());
        assertTrue(missing.code() != 0);
        assertEquals(own.err(), missing.err());
        assertEquals("", missing.out());

        Client usage = client(env, "job", "ls", "--state", "sideways");
        assertTrue(usage.handedOver(), usage.classes());
        assertEquals(2, usage.code(), usage.err());
        assertTrue(usage.err().startsWith("nvidb: "), usage.err());
    }

    @Test
    void theClientsTableWidthAndRelativeHomeAreItsOwn() throws Exception {
        assertEquals(0, CliRun.run(env, "queue", "drain", "here", "--no-tick").exitCode()); // the jobs stay pending
        for (int i = 0; i < 3; i++) {
            assertEquals(0, client(env, "job", "submit", "--no-tick", "-n", "a-rather-long-job-name-" + i, "--gpus", "0",
                    "--", "sleep", "60").code());
        }
        for (String columns : List.of("50", "160")) {
            Map<String, String> narrow = with("COLUMNS", columns);
            Client handed = client(narrow, "job", "ls", "--no-tick");
            assertTrue(handed.handedOver(), handed.classes());
            narrow.put("NVIDB_NO_HANDOFF", "1");
            assertEquals(withoutAges(client(narrow, "job", "ls", "--no-tick").out()), withoutAges(handed.out()),
                    "COLUMNS=" + columns);
        }
        // NVIDB_HOME relative to the client's directory, which is not the daemon's.
        Map<String, String> relative = new HashMap<>(env);
        relative.put("NVIDB_HOME", ".nvidb");
        Client fromHere = client(relative, "job", "ls", "--json", "--no-tick");
        assertTrue(fromHere.handedOver(), fromHere.classes());
        assertEquals(3, JSON.readTree(fromHere.out()).path("jobs").size(), fromHere.out() + fromHere.err());
    }

    @Test
    void linesTheDaemonMustNotRunStayInTheClient() throws Exception {
        Files.writeString(home.resolve("run.sh"), "true\n");
        for (List<String> line : List.of(
                List.of("job", "submit", "--wait", "--gpus", "0", "--", "true"),     // waits
                List.of("job", "submit", "--script", "run.sh", "--gpus", "0"),      // a file relative to here
                List.of("job", "ls", "--db-path", ".nvidb/queue.db", "--no-tick"),  // a database relative to here
                List.of("job", "ls", "@args"),                                       // picocli reads @FILE from here
                List.of("queue", "events", "--help"),
                List.of("job", "logs", "1"))) {
            Client run = client(env, line.toArray(String[]::new));
            assertFalse(run.handedOver(), line + " was handed over");
        }
        assertEquals(List.of(), List.of(Handoff.eligible(new String[] {"job", "--json", "ls"}) ? "job --json ls" : "")
                .stream().filter(s -> !s.isEmpty()).toList(), "only leading shared options are skipped");
        assertTrue(Handoff.eligible(new String[] {"--json", "job", "submit", "--", "python", "--wait", "@x"}) == false,
                "an @ anywhere keeps the line here");
        assertTrue(Handoff.eligible(new String[] {"--json", "job", "submit", "--", "python", "--wait"}),
                "options of the job's own command are the job's");
    }

    @Test
    void aLineFromAnotherBuildIsRefusedBeforeAnythingRuns() throws Exception {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(home.resolve(".nvidb/queue.db.daemon")));
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            bytes.write("run\n".getBytes(StandardCharsets.US_ASCII));
            DataOutputStream body = new DataOutputStream(bytes);
            body.writeInt(Handoff.VERSION);
            Handoff.string(body, "/elsewhere/nvidb.jar 1 2");
            body.writeInt(4);
            for (String arg : List.of("job", "submit", "--", "true")) {
                Handoff.string(body, arg);
            }
            body.writeInt(0);
            channel.write(ByteBuffer.wrap(bytes.toByteArray()));
            ByteBuffer header = ByteBuffer.allocate(5);
            while (header.hasRemaining() && channel.read(header) >= 0) {
                // read the first frame's header
            }
            assertEquals(Handoff.REFUSED, header.get(0));
        }
        Client ls = client(env, "job", "ls", "--json", "--no-tick");
        assertEquals(0, JSON.readTree(ls.out()).path("jobs").size(), "nothing was submitted");
    }

    @Test
    void aStoppedDaemonsSocketLeavesCommandsRunningThemselves() throws Exception {
        daemon.destroyForcibly().waitFor();
        assertTrue(Files.exists(home.resolve(".nvidb/queue.db.daemon")), "a killed daemon leaves its socket");
        Client status = client(env, "queue", "status", "--json", "--no-tick");
        assertFalse(status.handedOver());
        assertEquals(0, status.code(), status.err());
        assertEquals("", status.err());
    }

    private Map<String, String> with(String name, String value) {
        Map<String, String> changed = new HashMap<>(env);
        changed.put(name, value);
        return changed;
    }

    /** Replaces the times in a status document (the two runs are moments apart). */
    private static String withoutTimes(String json) {
        return json.replaceAll("\"([a-z_]*_at|generated|now|age_seconds|[a-z_]*_ago)\" : [0-9.]+", "\"$1\" : T");
    }

    /** Replaces the ages in a job table ("running 3s"): the two runs are moments apart. */
    private static String withoutAges(String table) {
        return table.replaceAll("\\b[0-9]+[smhd]\\b", "N");
    }

    private static String java() {
        return ClientProcess.java();
    }

    private Client client(Map<String, String> environment, String... args) throws Exception {
        return ClientProcess.run(home, "client-" + ++runs, environment, args);
    }

    private static String read(Path file) throws IOException {
        return ClientProcess.read(file);
    }
}
