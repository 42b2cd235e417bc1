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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.nvidb.cli.ClientProcess.Client;
import dev.nvidb.daemon.DaemonReply;
import dev.nvidb.daemon.DaemonRequest;
import dev.nvidb.daemon.Handoff;
import dev.nvidb.model.JobState;

/**
 * Commands handed to a running daemon ({@link Handoff}, {@link HandoffService}): a real
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
        daemon = ClientProcess.daemon(home, env);
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

        // Bad input is found by the client's own parser before anything is sent, and reported here as ever.
        Client usage = client(env, "job", "ls", "--state", "sideways");
        assertFalse(usage.handedOver(), usage.classes());
        assertEquals(2, usage.code(), usage.err());
        assertTrue(usage.err().startsWith("nvidb: unknown job state 'sideways'"), usage.err());
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
        for (List<String> line : List.of(
                List.of("job", "submit", "--wait", "--gpus", "0", "--", "true"),     // waits with its own agents
                List.of("job", "ls", "--db-path", ".nvidb/queue.db", "--no-tick"),  // a database relative to here
                List.of("job", "show", "@missing"),                                  // the daemon would read @FILE in its directory
                List.of("queue", "events", "--help"),
                List.of("job", "logs", "1"))) {
            Client run = client(env, line.toArray(String[]::new));
            assertFalse(run.handedOver(), line + " was handed over");
        }
    }

    /**
     * What the daemon runs is decided by the line's own parser (in the daemon, on the client's
     * words), not by matching option names: shared options anywhere before the command's own,
     * and the job's own words (even "--wait") left to the job.
     */
    @Test
    void theParserDecidesWhatIsHandedAndAsWhichRequest() throws Exception {
        Context context = new Context(env, new java.io.PrintWriter(java.io.Writer.nullWriter()),
                new java.io.PrintWriter(java.io.Writer.nullWriter()), false);
        DaemonRequest list = Cli.handedRequest(context, new String[] {"job", "--json", "ls", "--active", "-n", "3"}, home.toString());
        assertEquals(new DaemonRequest.ListJobs(new DaemonRequest.Options(true, false, false, false, false),
                List.of(JobState.PENDING, JobState.RUNNING), null, 3, null), list);
        DaemonRequest submit = Cli.handedRequest(context, new String[] {"--json", "job", "submit", "--gpus", "0", "--",
                "python", "--wait", "x"}, home.toString());
        assertTrue(submit instanceof DaemonRequest.Submit, String.valueOf(submit));
        assertEquals("python --wait x", ((DaemonRequest.Submit) submit).job().command(), "the job's words are the job's");
        assertEquals(null, Cli.handedRequest(context, new String[] {"job", "submit", "--wait", "--", "true"}, home.toString()));
        assertEquals(new DaemonRequest.Line(List.of("job", "show", "3", "--json")),
                Cli.handedRequest(context, new String[] {"job", "show", "3", "--json"}, home.toString()));
        assertEquals(new DaemonRequest.Line(List.of("job", "submit", "--op-id", "k1", "--", "true")),
                Cli.handedRequest(context, new String[] {"job", "submit", "--op-id", "k1", "--", "true"}, home.toString()),
                "an --op-id's replay is the line's");
        assertEquals(null, Cli.handedRequest(context, new String[] {"job", "ls", "--state", "sideways"}, home.toString()),
                "bad input is reported by the client");
        assertEquals(null, Cli.handedRequest(context, new String[] {"job", "submit", "--", "python", "@x"}, home.toString()),
                "an argument file is read in the client's directory, not the daemon's");
    }

    /** A --script file named relative to the client's directory is read there, and its job runs in the daemon. */
    @Test
    void aScriptIsReadInTheClientsDirectoryAndItsJobRunsInTheDaemon() throws Exception {
        Files.writeString(home.resolve("run.sh"), "#nvidb --gpus=0 --name scripted\necho from-the-script\n");
        Client submit = client(env, "job", "submit", "--json", "--script", "run.sh");
        assertTrue(submit.handedOver(), submit.classes());
        assertEquals(0, submit.code(), submit.err());
        JsonNode job = JSON.readTree(submit.out()).path("job");
        assertEquals("scripted", job.path("name").asText(), submit.out());
        assertEquals(0, client(env, "job", "wait", job.path("id").asText()).code());
        Client logs = client(env, "job", "logs", job.path("id").asText(), "--no-tick");
        assertEquals("from-the-script\n", logs.out(), logs.err());
    }

    /** A handed wait ends with its jobs' outcome; Ctrl-C ends it at once, here and in the daemon. */
    @Test
    void aHandedWaitAnswersWithTheOutcomeAndCtrlCStopsItInTheDaemon() throws Exception {
        Client failing = client(env, "job", "submit", "--gpus", "0", "--", "sh", "-c", "exit 3");
        Client waited = client(env, "job", "wait", failing.out().strip());
        assertTrue(waited.handedOver(), waited.classes());
        assertEquals(1, waited.code(), waited.out() + waited.err());
        Client own = client(with("NVIDB_NO_HANDOFF", "1"), "job", "wait", failing.out().strip());
        assertEquals(own.code(), waited.code());
        assertEquals(withoutAges(own.out()), withoutAges(waited.out()));

        org.junit.jupiter.api.Assumptions.assumeFalse(ExitCodesTest.sigintIgnored(ProcessHandle.current().pid()),
                "SIGINT is ignored here (a background job of a non-interactive shell): the client would inherit that");
        String sleeper = client(env, "job", "submit", "--gpus", "0", "--", "sleep", "120").out().strip();
        ProcessBuilder builder = new ProcessBuilder(java(), "-cp", System.getProperty("java.class.path"),
                "dev.nvidb.cli.Main", "job", "wait", sleeper).redirectInput(new File("/dev/null"));
        builder.environment().clear();
        builder.environment().putAll(env);
        Process process = builder.start();
        try {
            long deadline = System.nanoTime() + LIMIT.toNanos();
            while (!threadNames(daemon.pid()).contains("handoff-hang-up")) {
                assertTrue(System.nanoTime() < deadline && process.isAlive(), "the wait never reached the daemon");
                Thread.sleep(20); // a poll with a deadline
            }
            new ProcessBuilder("kill", "-INT", String.valueOf(process.pid())).start().waitFor();
            assertTrue(process.waitFor(10, TimeUnit.SECONDS), "Ctrl-C ends a handed wait at once");
            assertEquals(130, process.exitValue());
            while (threadNames(daemon.pid()).contains("daemon-client")) {
                assertTrue(System.nanoTime() < deadline, "the daemon still waits for a client that is gone");
                Thread.sleep(20); // a poll with a deadline
            }
        } finally {
            process.destroyForcibly();
        }
        assertEquals("running", JSON.readTree(client(env, "job", "show", sleeper, "--json", "--no-tick").out())
                .path("job").path("state").asText(), "the job itself goes on");
        CliRun.run(env, "job", "cancel", sleeper);
    }

    @Test
    void aLineFromAnotherBuildIsRefusedBeforeAnythingRuns() throws Exception {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(home.resolve(".nvidb/queue.db.daemon")));
            channel.write(ByteBuffer.wrap(Handoff.envelope(submitTrue(), env, home.toString(), "/elsewhere/nvidb.jar 1 2")));
            ByteBuffer header = ByteBuffer.allocate(5);
            while (header.hasRemaining() && channel.read(header) >= 0) {
                // read the first frame's header
            }
            assertEquals(DaemonReply.REFUSED, header.get(0));
        }
        Client ls = client(env, "job", "ls", "--json", "--no-tick");
        assertEquals(0, JSON.readTree(ls.out()).path("jobs").size(), "nothing was submitted");
    }

    /**
     * Ctrl-C at random moments of a handed {@code job submit}: as for a submit run in its own
     * process ({@code SubmitExitCodeTest}), every run either stored nothing and exited non-zero,
     * or printed the id of the job it stored and exited 0 — also when the signal lands while the
     * daemon runs the line.
     */
    @Test
    void ctrlCAtAnyMomentOfAHandedSubmitEitherStoresNothingOrPrintsTheStoredId() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(ExitCodesTest.sigintIgnored(ProcessHandle.current().pid()),
                "SIGINT is ignored here (a background job of a non-interactive shell): the clients would inherit that");
        java.util.Random random = new java.util.Random(11);
        long t0 = System.nanoTime();
        Process timed = submitProcess();
        assertTrue(timed.waitFor(60, TimeUnit.SECONDS));
        long full = (System.nanoTime() - t0) / 1_000_000;
        List<String> problems = new java.util.ArrayList<>();
        int stored = 0;
        int trials = 8;
        for (int trial = 0; trial < trials; trial++) {
            long before = jobCount();
            Process process = submitProcess();
            try {
                long delay = (long) (full * (0.2 + 0.9 * random.nextDouble()));
                if (!process.waitFor(delay, TimeUnit.MILLISECONDS)) {
                    new ProcessBuilder("kill", "-INT", String.valueOf(process.pid())).start().waitFor();
                }
                assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the submit ends after Ctrl-C");
                String out = new String(process.getInputStream().readAllBytes()).strip();
                int code = process.exitValue();
                long after = jobCount();
                if (after == before + 1) {
                    stored++;
                    if (!out.equals(String.valueOf(after)) || code != 0) {
                        problems.add("trial " + trial + " (" + delay + " ms): stored job " + after + " but printed '" + out
                                + "' and exited " + code);
                    }
                } else if (after != before || code == 0 || !(out.isEmpty() || diedStartingTheVm(out))) {
                    problems.add("trial " + trial + " (" + delay + " ms): " + (after - before) + " jobs, exit " + code
                            + ", printed '" + out + "'");
                }
            } finally {
                process.destroyForcibly();
            }
        }
        assertEquals(List.of(), problems, stored + " of " + trials + " interrupted submits stored their job");
    }

    /**
     * A SIGINT that lands while the JVM itself is still starting (before any class of ours
     * runs) ends it with "Error occurred during initialization of VM", exit 1, on stdout: the
     * JVM's own window, in which nothing can have been sent or stored.
     */
    private static boolean diedStartingTheVm(String out) {
        return out.startsWith("Error occurred during initialization of VM");
    }

    /**
     * The window the random test above rarely hits, made wide: the database is write-locked, so
     * the daemon's submit waits on it; Ctrl-C reaches the client while it waits for the answer;
     * then the lock goes, the daemon stores the job, and the client prints its id and exits 0.
     */
    @Test
    void ctrlCWhileTheDaemonRunsAHandedSubmitWaitsForItsAnswer() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(ExitCodesTest.sigintIgnored(ProcessHandle.current().pid()),
                "SIGINT is ignored here (a background job of a non-interactive shell): the client would inherit that");
        Path classes = home.resolve("signalled.classes");
        try (java.sql.Connection lock = java.sql.DriverManager.getConnection("jdbc:sqlite:" + home.resolve(".nvidb/queue.db"))) {
            lock.createStatement().execute("BEGIN IMMEDIATE");
            ProcessBuilder builder = new ProcessBuilder(java(), "-Xlog:class+load=info:file=" + classes, "-cp",
                    System.getProperty("java.class.path"), "dev.nvidb.cli.Main", "job", "submit", "--gpus", "0", "--", "true")
                    .redirectInput(new File("/dev/null"));
            builder.environment().clear();
            builder.environment().putAll(env);
            Process process = builder.start();
            try {
                // The daemon answers a connection on a thread of its own, which runs the handed line and
                // now waits on the lock (a signal from here on must not lose the job it will store).
                long deadline = System.nanoTime() + LIMIT.toNanos();
                while (!threadNames(daemon.pid()).contains("daemon-client")) {
                    assertTrue(System.nanoTime() < deadline && process.isAlive(), "the client never reached the daemon");
                    Thread.sleep(20); // a poll with a deadline
                }
                // The client's watchdog (running since before it connected) ends once the daemon
                // accepted and the client confirmed: from then on the line is the daemon's.
                while (threadNames(process.pid()).contains("handoff-accept")) {
                    assertTrue(System.nanoTime() < deadline && process.isAlive(), "the line was never confirmed");
                    Thread.sleep(20); // a poll with a deadline
                }
                // The daemon now waits on the lock, for at most its busy timeout (10 s): the signal and
                // the look at the client's hook must fit in that, or the daemon's submit fails instead.
                long lockBudget = System.nanoTime() + TimeUnit.SECONDS.toNanos(7);
                new ProcessBuilder("kill", "-INT", String.valueOf(process.pid())).start().waitFor();
                // The client's JVM runs its shutdown hooks; the handoff's is the one that waits for the answer.
                while (!threadNames(process.pid()).contains("handoff-answer")) {
                    assertTrue(System.nanoTime() < lockBudget, "no hook waits for the handed line's answer");
                    assertTrue(process.isAlive(), "the client ended without the handed line's answer");
                    Thread.sleep(10); // a poll with a deadline
                }
                assertTrue(process.isAlive(), "the client waits for the handed line's answer");
                lock.createStatement().execute("COMMIT");
                assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the client ends once the line has answered");
                String out = new String(process.getInputStream().readAllBytes()).strip();
                assertEquals(0, process.exitValue(), new String(process.getErrorStream().readAllBytes()));
                assertEquals("1", out, "the id of the job the daemon stored");
                assertEquals(1, jobCount());
            } finally {
                process.destroyForcibly();
            }
        }
    }

    /** The names of process {@code pid}'s threads (the JVM names its native threads after Java's). */
    private static List<String> threadNames(long pid) throws IOException {
        List<String> names = new java.util.ArrayList<>();
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    names.add(Files.readString(task.resolve("comm")).strip());
                } catch (IOException e) {
                    // ended meanwhile
                }
            }
        } catch (IOException e) {
            return names; // the process is gone
        }
        return names;
    }

    private Process submitProcess() throws IOException {
        ProcessBuilder builder = new ProcessBuilder(java(), "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), "dev.nvidb.cli.Main", "job", "submit", "--gpus", "0", "--", "true")
                .redirectInput(new File("/dev/null"));
        builder.environment().clear();
        builder.environment().putAll(env);
        return builder.start();
    }

    private long jobCount() throws IOException {
        return JSON.readTree(CliRun.run(env, "job", "ls", "--json", "--no-tick").stdout()).path("jobs").size();
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

    /**
     * "Accepted" is not enough for the daemon to run a line: it waits for the client's go-ahead,
     * so a client that stopped waiting (and runs the line itself, or nowhere after Ctrl-C) can
     * never have it run a second time in the daemon.
     */
    @Test
    void aLineTheClientDoesNotConfirmRunsNowhere() throws Exception {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(home.resolve(".nvidb/queue.db.daemon")));
            channel.write(ByteBuffer.wrap(Handoff.envelope(submitTrue(), env, home.toString(), Handoff.build())));
            ByteBuffer header = ByteBuffer.allocate(5);
            while (header.hasRemaining() && channel.read(header) >= 0) {
                // the first frame's header
            }
            assertEquals(DaemonReply.ACCEPTED, header.get(0));
        } // closed without the go-ahead
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (threadNames(daemon.pid()).contains("daemon-client")) {
            assertTrue(System.nanoTime() < deadline, "the daemon still holds the connection");
            Thread.sleep(20); // a poll with a deadline
        }
        assertEquals(0, jobCount(), "nothing was submitted");
    }

    /**
     * A daemon that accepts only after the client stopped waiting (5 s): the client runs the
     * line itself and never confirms, so the late "accepted" starts nothing. The daemon here is a
     * socket that answers late on purpose; the real one cannot be slowed on cue.
     */
    @Test
    void anAcceptanceThatComesTooLateIsNeverConfirmed() throws Exception {
        daemon.destroyForcibly().waitFor();
        Path socket = home.resolve(".nvidb/queue.db.daemon");
        Files.deleteIfExists(socket);
        try (java.nio.channels.ServerSocketChannel server = java.nio.channels.ServerSocketChannel.open(
                StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            java.util.concurrent.CompletableFuture<Integer> afterAccept = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try (SocketChannel connection = server.accept()) {
                    connection.read(ByteBuffer.allocate(1 << 16)); // the request
                    Thread.sleep(6000);                            // past the client's patience
                    ByteBuffer accepted = ByteBuffer.allocate(5).put(DaemonReply.ACCEPTED).putInt(0).flip();
                    try {
                        connection.write(accepted);
                    } catch (IOException closed) {
                        return -1;                                 // the client is gone: nothing to confirm
                    }
                    return connection.read(ByteBuffer.allocate(1)); // -1: closed; 1: a go-ahead
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            Client submit = client(env, "job", "submit", "--gpus", "0", "--", "true");
            assertFalse(submit.handedOver(), "the client ran the line itself");
            assertEquals(0, submit.code(), submit.err());
            assertEquals("1", submit.out().strip());
            assertEquals(-1, afterAccept.get(30, TimeUnit.SECONDS), "the late acceptance was not confirmed");
            assertEquals(1, jobCount());
        }
    }

    /** {@code job submit --gpus 0 -- true} as this process's parser makes it a request. */
    private DaemonRequest submitTrue() {
        java.io.PrintWriter none = new java.io.PrintWriter(java.io.Writer.nullWriter());
        return Cli.handedRequest(new Context(env, none, none, false), new String[] {"job", "submit", "--gpus", "0", "--", "true"},
                home.toString());
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
