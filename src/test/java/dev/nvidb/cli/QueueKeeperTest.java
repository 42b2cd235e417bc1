package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The keeper with real processes (issue 8, item 2): the shell supervisor started detached runs
 * {@code queue daemon} through a launcher, restarts it when it is killed, is reported DOWN when
 * it is itself killed and brought back by {@code ensure}, runs once per NVIDB_HOME, recovers
 * from a stale pid file, and {@code stop} leaves no process behind. The launcher here is a small
 * script that runs this build's classes, as bin/nvidb runs the jar. Every process a test starts
 * carries its NVIDB_HOME in its environment and is killed after the test, whatever happened.
 */
class QueueKeeperTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration LONG = Duration.ofSeconds(60);

    @TempDir
    Path home;

    private Path nvidbHome;
    private Map<String, String> env;

    @BeforeEach
    void queueWithALauncher() throws IOException {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "needs Linux /proc");
        nvidbHome = home.resolve(".nvidb");
        Files.createDirectories(nvidbHome);
        Files.writeString(nvidbHome.resolve("queue.yml"), "queue:\n  local_node_name: here\n  tick_min_interval: 0\n");
        Path launcher = home.resolve("nvidb");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(launcher, "#!/bin/sh\nexec '" + java + "' -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx256m -cp '"
                + System.getProperty("java.class.path") + "' dev.nvidb.cli.Main \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
        env = new HashMap<>(Map.of("HOME", home.toString(), "NVIDB_HOME", nvidbHome.toString(),
                "NVIDB_LAUNCHER", launcher.toString(), "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")));
    }

    /** Stops the keeper, then kills whatever still runs with this test's NVIDB_HOME. */
    @AfterEach
    void killEverythingStarted() throws Exception {
        if (env == null) {
            return;
        }
        Thread.interrupted();
        try {
            CliRun.run(env, "queue", "keeper", "stop");
        } finally {
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            List<Long> left = ours();
            while (!left.isEmpty() && System.nanoTime() < deadline) {
                left.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
                Thread.sleep(50); // a poll with a deadline
                left = ours();
            }
        }
    }

    @Test
    void installStartsADetachedSupervisorAndAKilledDaemonIsRestartedWithinSeconds() throws Exception {
        CliRun install = keeper("install", "--start", "--interval", "1");
        assertEquals(0, install.exitCode(), install.stderr());
        assertTrue(install.stdout().contains("keeper up: shell supervisor"), install.stdout());
        assertTrue(Files.isRegularFile(nvidbHome.resolve("queue-keeper.sh")));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(nvidbHome.resolve("queue-keeper.sh"))));

        JsonNode up = status();
        long supervisor = up.path("keeper").path("supervisor_pid").asLong();
        long[] me = stat(ProcessHandle.current().pid());
        long[] it = stat(supervisor);
        assertEquals(supervisor, it[1], "the supervisor leads a session of its own");
        assertNotEquals(me[0], it[0], "not in the test's process group");
        assertNotEquals(me[1], it[1], "not in the test's session");
        assertEquals("/dev/null", Files.readSymbolicLink(Path.of("/proc/" + supervisor + "/fd/0")).toString());

        long daemon = await(() -> status().path("keeper").path("daemon_pid").asLong(0), "a daemon");
        await(() -> lastTickAt() > 0 ? 1 : 0, "the daemon's first tick");
        long killedAt = System.currentTimeMillis();
        ProcessHandle.of(daemon).orElseThrow().destroyForcibly();
        long again = await(() -> {
            long pid = status().path("keeper").path("daemon_pid").asLong(0);
            return pid != daemon ? pid : 0;
        }, "a new daemon");
        long restartMillis = System.currentTimeMillis() - killedAt;
        assertTrue(restartMillis < 15_000, "restarted after " + restartMillis + " ms");
        JsonNode after = status().path("keeper");
        assertEquals(supervisor, after.path("supervisor_pid").asLong());
        assertEquals(1, after.path("restarts").asInt(), after.toString());
        assertEquals(137, after.path("last_exit").asInt(), after.toString());
        assertTrue(ProcessHandle.of(again).isPresent());
        await(() -> lastTickAt() * 1000 > killedAt ? 1 : 0, "a tick by the new daemon");

        CliRun queueStatus = CliRun.run(env, "queue", "status", "--no-tick");
        assertTrue(queueStatus.stdout().contains("keeper up: shell supervisor " + supervisor), queueStatus.stdout());
        JsonNode queueJson = JSON.readTree(CliRun.run(env, "queue", "status", "--no-tick", "--json").stdout());
        assertEquals("shell", queueJson.path("keeper").path("kind").asText());
        assertTrue(queueJson.path("keeper").path("up").asBoolean());
        assertTrue(keeper("logs", "-n", "50").stdout().contains("daemon exited with status 137"));
    }

    @Test
    void aKilledSupervisorIsDownUntilEnsureBringsItBackSilentlyThereafter() throws Exception {
        assertEquals(0, keeper("install", "--start", "--interval", "1").exitCode());
        long supervisor = status().path("keeper").path("supervisor_pid").asLong();
        long daemon = await(() -> status().path("keeper").path("daemon_pid").asLong(0), "a daemon");
        ProcessHandle.of(supervisor).orElseThrow().destroyForcibly();
        await(() -> keeper("status").exitCode() == 1 ? 1 : 0, "the keeper reported down");

        CliRun down = keeper("status");
        assertEquals(1, down.exitCode());
        assertTrue(down.stdout().startsWith("keeper DOWN: shell"), down.stdout());
        assertTrue(CliRun.run(env, "queue", "status", "--no-tick").stdout().contains("keeper DOWN"));
        JsonNode queueJson = JSON.readTree(CliRun.run(env, "queue", "status", "--no-tick", "--json").stdout());
        assertFalse(queueJson.path("keeper").path("up").asBoolean());
        assertEquals("down", queueJson.path("keeper").path("state").asText());

        CliRun ensure = keeper("ensure");
        assertEquals(0, ensure.exitCode(), ensure.stderr());
        assertEquals("", ensure.stdout());
        assertEquals("nvidb: the queue keeper was down; started it", ensure.stderr().strip());
        long second = status().path("keeper").path("supervisor_pid").asLong();
        assertNotEquals(supervisor, second);
        await(() -> ProcessHandle.of(daemon).isPresent() ? 0 : 1, "the orphaned daemon stopped by the new supervisor");
        await(() -> {
            long pid = status().path("keeper").path("daemon_pid").asLong(0);
            return pid != daemon ? pid : 0;
        }, "the new supervisor's daemon");

        CliRun quiet = keeper("ensure");
        assertEquals(0, quiet.exitCode());
        assertEquals("", quiet.stdout() + quiet.stderr(), "silent while the keeper is up");
        assertEquals(1, supervisors().size());
    }

    @Test
    void ensureInstallsAndStartsTheShellKeeperWhenNoneIsInstalled() throws Exception {
        CliRun ensure = keeper("ensure");
        assertEquals(0, ensure.exitCode(), ensure.stderr());
        assertTrue(ensure.stderr().contains("installed the shell keeper and started it"), ensure.stderr());
        assertTrue(Files.isRegularFile(nvidbHome.resolve("queue-keeper.sh")));
        assertTrue(Files.readString(nvidbHome.resolve("queue-keeper.sh")).contains("interval='15'"));
        assertEquals(0, keeper("status").exitCode());
    }

    @Test
    void aSecondStartAndASecondScriptLeaveOneSupervisor() throws Exception {
        assertEquals(0, keeper("install", "--interval", "1").exitCode());
        assertEquals(0, keeper("start").exitCode());
        long supervisor = status().path("keeper").path("supervisor_pid").asLong();
        CliRun again = keeper("start", "--json");
        assertEquals(0, again.exitCode());
        assertEquals("already_running", JSON.readTree(again.stdout()).path("action").asText());
        assertEquals(supervisor, status().path("keeper").path("supervisor_pid").asLong());

        // Past the command's own check: the script itself refuses to run twice (the flock).
        ProcessBuilder direct = new ProcessBuilder("setsid", "bash", nvidbHome.resolve("queue-keeper.sh").toString())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectErrorStream(true);
        direct.environment().putAll(env);
        Process second = direct.start();
        try {
            assertTrue(second.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "the second script exits");
            assertEquals(0, second.exitValue());
        } finally {
            second.destroyForcibly();
        }
        assertEquals(List.of(supervisor), supervisors());
        assertTrue(Files.readString(nvidbHome.resolve("queue-keeper.log")).contains("another keeper already runs"));
    }

    @Test
    void aStalePidFileNamingARecycledPidIsDownAndStartRecoversWithoutSignallingIt() throws Exception {
        assertEquals(0, keeper("install", "--interval", "1").exitCode());
        long me = ProcessHandle.current().pid();
        String boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
        // A supervisor and a daemon that died, their pids since given to this very test process.
        Files.writeString(nvidbHome.resolve("queue-keeper.pid"), "kind=shell\nsupervisor_pid=" + me
                + "\nsupervisor_start=1\nboot_id=" + boot + "\ndaemon_pid=" + me + "\ndaemon_start=1\nrestarts=0\n");
        Files.writeString(nvidbHome.resolve("queue-keeper.lock"), "");
        CliRun down = keeper("status", "--json");
        assertEquals(1, down.exitCode());
        assertEquals("down", JSON.readTree(down.stdout()).path("keeper").path("state").asText());

        assertEquals(0, keeper("start").exitCode());
        long supervisor = status().path("keeper").path("supervisor_pid").asLong();
        assertNotEquals(me, supervisor);
        assertEquals(0, keeper("status").exitCode());
        assertEquals(0, keeper("stop").exitCode());
        assertTrue(ProcessHandle.current().isAlive());
    }

    @Test
    void stopEndsTheSupervisorTheDaemonAndItsGroupLeavingNothingBehind() throws Exception {
        assertEquals(0, keeper("install", "--start", "--interval", "1").exitCode());
        await(() -> lastTickAt() > 0 ? 1 : 0, "the daemon's first tick");
        assertFalse(ours().isEmpty());
        CliRun stop = keeper("stop");
        assertEquals(0, stop.exitCode(), stop.stderr());
        assertEquals("keeper stopped", stop.stdout().strip());
        assertEquals(List.of(), ours(), "no process of the keeper is left");
        assertFalse(Files.exists(nvidbHome.resolve("queue-keeper.pid")));
        assertEquals(1, keeper("status").exitCode());
        assertEquals("keeper was not running", keeper("stop").stdout().strip());
        assertTrue(Files.readString(nvidbHome.resolve("queue-keeper.log")).contains("keeper stopped"));

        CliRun restart = keeper("restart", "--json");
        assertEquals(0, restart.exitCode(), restart.stderr());
        assertTrue(JSON.readTree(restart.stdout()).path("keeper").path("up").asBoolean());
    }

    @Test
    void statusExitsNonZeroUnlessAKeeperIsUp() throws Exception {
        CliRun none = keeper("status");
        assertEquals(1, none.exitCode());
        assertTrue(none.stdout().startsWith("no queue keeper is installed"), none.stdout());
        JsonNode noneJson = JSON.readTree(keeper("status", "--json").stdout());
        assertFalse(noneJson.path("ok").asBoolean());
        assertFalse(noneJson.path("installed").asBoolean());
        assertTrue(noneJson.path("keeper").isNull());
        assertTrue(JSON.readTree(CliRun.run(env, "queue", "status", "--no-tick", "--json").stdout()).path("keeper").isNull());
        assertFalse(CliRun.run(env, "queue", "status", "--no-tick").stdout().contains("keeper"));
        assertEquals(1, keeper("start").exitCode(), "nothing to start");
        assertEquals(1, keeper("logs").exitCode());

        assertEquals(0, keeper("install").exitCode());
        CliRun installed = keeper("status");
        assertEquals(1, installed.exitCode());
        assertTrue(installed.stdout().startsWith("keeper DOWN: shell"), installed.stdout());

        assertEquals(0, keeper("start").exitCode());
        assertEquals(0, keeper("status").exitCode());
        assertTrue(status().path("ok").asBoolean());
    }

    @Test
    void logsPrintsTheLastLinesAcrossTheCutLog() throws Exception {
        assertEquals(0, keeper("install").exitCode());
        Files.writeString(nvidbHome.resolve("queue-keeper.log.1"), "old 1\nold 2\nold 3\n");
        StringBuilder log = new StringBuilder();
        for (int i = 1; i <= 10; i++) {
            log.append("line ").append(i).append('\n');
        }
        Files.writeString(nvidbHome.resolve("queue-keeper.log"), log);
        assertEquals("line 8\nline 9\nline 10\n", keeper("logs", "-n", "3").stdout());
        assertTrue(keeper("logs", "-n", "12").stdout().startsWith("old 2\nold 3\nline 1\n"));
        JsonNode json = JSON.readTree(keeper("logs", "-n", "2", "--json").stdout());
        assertEquals("[\"line 9\",\"line 10\"]", json.path("lines").toString());
        assertEquals("shell", json.path("kind").asText());
        assertEquals(2, keeper("logs", "-n", "-1").exitCode());
    }

    @Test
    void theSystemdUnitRunsTheDaemonWithAbsolutePathsAndItsStartFailsInOneLineWithoutAUserSession() throws Exception {
        Path odd = home.resolve("q 100%$x");
        Files.createDirectories(odd);
        Files.writeString(odd.resolve("queue.yml"), "queue:\n  local_node_name: here\n");
        env.put("NVIDB_HOME", odd.toString());
        CliRun install = keeper("install", "--systemd", "--interval", "5");
        assertEquals(0, install.exitCode(), install.stderr());
        assertTrue(install.stdout().contains("loginctl enable-linger \"$USER\""), install.stdout());
        Path unit = home.resolve(".config/systemd/user/nvidb-queue.service");
        List<String> lines = Files.readAllLines(unit);
        String escapedHome = odd.toString().replace("%", "%%");
        assertTrue(lines.contains("[Service]"), lines.toString());
        assertTrue(lines.contains("Environment=\"NVIDB_HOME=" + escapedHome + "\""), lines.toString());
        assertTrue(lines.contains("ExecStart=\"" + env.get("NVIDB_LAUNCHER") + "\" queue daemon --local --interval \"5\""),
                lines.toString());
        assertTrue(lines.contains("Restart=always"), lines.toString());
        assertTrue(lines.contains("RestartSec=5"), lines.toString());
        assertTrue(lines.contains("[Install]"), lines.toString());
        assertTrue(lines.contains("WantedBy=default.target"), lines.toString());
        assertTrue(lines.stream().anyMatch(line -> line.startsWith("Environment=\"JAVA=/")), lines.toString());

        CliRun status = keeper("status", "--json");
        assertEquals(1, status.exitCode());
        assertEquals("systemd", JSON.readTree(status.stdout()).path("keeper").path("kind").asText());
        assertEquals("systemd", JSON.readTree(CliRun.run(env, "queue", "status", "--no-tick", "--json").stdout())
                .path("keeper").path("kind").asText());

        // No user systemd session here (no bus in the environment): one clear line, exit 1.
        CliRun start = keeper("install", "--systemd", "--start");
        assertEquals(1, start.exitCode());
        assertEquals(1, start.stderr().strip().lines().count(), start.stderr());
        assertTrue(start.stderr().startsWith("nvidb: cannot "), start.stderr());
        assertTrue(start.stderr().contains("systemctl --user"), start.stderr());
        assertTrue(start.stderr().contains("nvidb queue keeper install --start"), start.stderr());

        // The shell keeper replaces it.
        assertEquals(0, keeper("install").exitCode());
        assertFalse(Files.exists(unit));
        assertEquals("shell", JSON.readTree(keeper("status", "--json").stdout()).path("keeper").path("kind").asText());
    }

    @Test
    void aDaemonThatKeepsExitingAtOnceIsRestartedWithGrowingBackOffAndReportedFailing() throws Exception {
        Path broken = home.resolve("broken-nvidb");
        Files.writeString(broken, "#!/bin/sh\necho 'nvidb: cannot start' >&2\nexit 3\n");
        Files.setPosixFilePermissions(broken, PosixFilePermissions.fromString("rwx------"));
        env.put("NVIDB_LAUNCHER", broken.toString());
        assertEquals(0, keeper("install", "--start", "--interval", "1").exitCode());
        await(() -> "failing".equals(status().path("keeper").path("state").asText()) ? 1 : 0, "the keeper failing");
        JsonNode failing = status().path("keeper");
        assertEquals(3, failing.path("last_exit").asInt(), failing.toString());
        assertTrue(failing.path("restarts").asInt() >= 2, failing.toString());

        CliRun text = keeper("status");
        assertEquals(1, text.exitCode(), "failing is not moving the queue");
        assertTrue(text.stdout().startsWith("keeper FAILING: shell supervisor"), text.stdout());
        CliRun ensure = keeper("ensure");
        assertEquals(1, ensure.exitCode());
        assertEquals("", ensure.stdout());
        assertEquals(1, ensure.stderr().strip().lines().count(), ensure.stderr());
        assertTrue(ensure.stderr().startsWith("nvidb: queue keeper: the queue keeper runs but its daemon exited"),
                ensure.stderr());
        // "failing" is reported after two quick exits; the third back-off follows them.
        Path keeperLog = nvidbHome.resolve("queue-keeper.log");
        await(() -> {
            try {
                return Files.readString(keeperLog).contains("starting it again in 4 s") ? 1 : 0;
            } catch (java.io.IOException e) {
                return 0;
            }
        }, "a third restart, 4 s after the second");
        String log = Files.readString(keeperLog);
        assertTrue(log.contains("starting it again in 1 s") && log.contains("starting it again in 2 s")
                && log.contains("starting it again in 4 s"), log);
        assertTrue(log.contains("nvidb: cannot start"), "the daemon's own output is in the log");
    }

    @Test
    void aLogOverOneMebibyteIsCutBeforeTheDaemonStarts() throws Exception {
        Path log = nvidbHome.resolve("queue-keeper.log");
        Files.writeString(log, "x".repeat(99) + "\n", StandardCharsets.UTF_8);
        byte[] line = ("y".repeat(99) + "\n").getBytes(StandardCharsets.UTF_8);
        try (var out = Files.newOutputStream(log, java.nio.file.StandardOpenOption.APPEND)) {
            for (int i = 0; i < 15_000; i++) {
                out.write(line);
            }
        }
        assertEquals(0, keeper("install", "--start", "--interval", "1").exitCode());
        Path old = nvidbHome.resolve("queue-keeper.log.1");
        await(() -> {
            try {
                return Files.exists(old) && Files.size(old) > 1_500_000 && Files.readString(log).contains("log cut at") ? 1 : 0;
            } catch (IOException e) {
                return 0;
            }
        }, "the part before the cut in queue-keeper.log.1");
        assertTrue(Files.size(log) < 100_000, "the log starts again");
    }

    /**
     * A client runs ensure over SSH before its command: the keeper it starts must not hold the
     * command's stdout or stderr, or the SSH channel would stay open as long as the keeper runs.
     */
    @Test
    void ensureAsAProcessEndsItsOutputStreamsWhenItExits() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(env.get("NVIDB_LAUNCHER"), "queue", "keeper", "ensure");
        builder.environment().clear();
        builder.environment().putAll(env);
        Process ensure = builder.start();
        try {
            ensure.getOutputStream().close();
            var out = java.util.concurrent.CompletableFuture.supplyAsync(() -> drain(ensure.getInputStream()));
            var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> drain(ensure.getErrorStream()));
            assertTrue(ensure.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "ensure ends");
            assertEquals(0, ensure.exitValue());
            assertEquals("", out.get(10, java.util.concurrent.TimeUnit.SECONDS), "stdout ends with the process");
            assertTrue(err.get(10, java.util.concurrent.TimeUnit.SECONDS).contains("installed the shell keeper"));
        } finally {
            ensure.destroyForcibly();
        }
        assertEquals(0, keeper("status").exitCode());
    }

    private static String drain(java.io.InputStream stream) {
        try {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The script alone, started by hand after its predecessor was killed (no nvidb command to
     * clean up first): the dead supervisor's lock is free, whatever children it left, and the
     * daemon it left running is stopped before the new one starts.
     */
    @Test
    void aScriptStartedByHandAfterItsSupervisorWasKilledTakesOverTheLockAndTheOrphanedDaemon() throws Exception {
        assertEquals(0, keeper("install", "--start", "--interval", "1").exitCode());
        long supervisor = status().path("keeper").path("supervisor_pid").asLong();
        long daemon = await(() -> status().path("keeper").path("daemon_pid").asLong(0), "a daemon");
        ProcessHandle.of(supervisor).orElseThrow().destroyForcibly();
        await(() -> ProcessHandle.of(supervisor).isPresent() ? 0 : 1, "the supervisor gone");

        ProcessBuilder byHand = new ProcessBuilder("setsid", "bash", nvidbHome.resolve("queue-keeper.sh").toString())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        byHand.environment().putAll(env);
        byHand.start();
        long second = await(() -> {
            long pid = status().path("keeper").path("supervisor_pid").asLong(0);
            return pid != supervisor && status().path("ok").asBoolean() ? pid : 0;
        }, "the supervisor started by hand up");
        await(() -> ProcessHandle.of(daemon).isPresent() ? 0 : 1, "the orphaned daemon stopped");
        assertEquals(List.of(second), supervisors());
    }

    @Test
    void stopLeavesTheJobsTheDaemonStartedRunning() throws Exception {
        assertEquals(0, keeper("install", "--start", "--interval", "1").exitCode());
        CliRun submit = CliRun.run(env, "job", "submit", "--no-tick", "--gpus", "0", "--", "sleep", "617");
        assertEquals(0, submit.exitCode(), submit.stderr());
        await(() -> jobState().equals("running") ? 1 : 0, "the job placed by the daemon");
        List<Long> job = new ArrayList<>();
        await(() -> {
            job.addAll(sleeping617());
            return job.size();
        }, "the job's process");
        assertEquals(0, keeper("stop").exitCode());
        assertEquals(job, sleeping617(), "the job runs on without its daemon");
    }

    private String jobState() {
        try {
            return JSON.readTree(CliRun.run(env, "job", "show", "1", "--json", "--no-tick").stdout()).path("job").path("state").asText();
        } catch (IOException e) {
            return "";
        }
    }

    private List<Long> sleeping617() {
        List<Long> found = new ArrayList<>();
        for (long pid : ours()) {
            try {
                String cmdline = new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8);
                if (cmdline.equals("sleep\0" + "617\0")) {
                    found.add(pid);
                }
            } catch (IOException e) {
                // gone
            }
        }
        return found;
    }

    private CliRun keeper(String... words) {
        List<String> args = new ArrayList<>(List.of("queue", "keeper"));
        args.addAll(List.of(words));
        return CliRun.run(env, args.toArray(String[]::new));
    }

    private JsonNode status() {
        try {
            return JSON.readTree(keeper("status", "--json").stdout());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private double lastTickAt() {
        try {
            return JSON.readTree(CliRun.run(env, "queue", "status", "--no-tick", "--json").stdout())
                    .path("last_tick_at").asDouble(0);
        } catch (IOException e) {
            return 0;
        }
    }

    /** Polls until {@code value} is non-zero (a poll with a deadline, no sleep for state). */
    private static long await(java.util.function.LongSupplier value, String what) throws InterruptedException {
        long deadline = System.nanoTime() + LONG.toNanos();
        while (true) {
            long now = value.getAsLong();
            if (now != 0) {
                return now;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " within " + LONG.toSeconds() + " s");
            }
            Thread.sleep(50);
        }
    }

    /** {pgrp, session} of a process. */
    private static long[] stat(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return new long[] {Long.parseLong(fields[2]), Long.parseLong(fields[3])};
    }

    /** The processes (other than this test) whose environment names this test's NVIDB_HOME or a job directory in it. */
    private List<Long> ours() {
        List<Long> found = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        try (var processes = ProcessHandle.allProcesses()) {
            processes.filter(process -> process.pid() != self).forEach(process -> {
                try {
                    String environ = new String(Files.readAllBytes(Path.of("/proc/" + process.pid() + "/environ")),
                            StandardCharsets.UTF_8);
                    for (String home : List.of(nvidbHome.toString(), env.get("NVIDB_HOME"))) {
                        // The keeper's processes carry NVIDB_HOME; the jobs, their directory under it.
                        if (environ.contains("NVIDB_HOME=" + home + "\0") || environ.contains("NVIDB_JOB_DIR=" + home + "/")) {
                            found.add(process.pid());
                            return;
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // gone, or not ours to read
                }
            });
        }
        return found;
    }

    /** The pids of running supervisors of this home (bash running its queue-keeper.sh), without their forks. */
    private List<Long> supervisors() {
        String script = nvidbHome.resolve("queue-keeper.sh").toString();
        List<Long> found = new ArrayList<>();
        for (long pid : ours()) {
            try {
                String cmdline = new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8);
                if (cmdline.contains(script) && !cmdline.contains("dev.nvidb.cli.Main")) {
                    found.add(pid);
                }
            } catch (IOException e) {
                // gone
            }
        }
        // A supervisor's command substitutions and subshells are forks with its command line; they
        // are that supervisor at work, not a second one (CI once sampled one mid-fork).
        found.removeIf(pid -> ProcessHandle.of(pid).flatMap(ProcessHandle::parent)
                .map(parent -> found.contains(parent.pid())).orElse(false));
        return found;
    }

}
