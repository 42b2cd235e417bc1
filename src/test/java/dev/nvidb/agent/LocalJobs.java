package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.JobSpec;
import dev.nvidb.testing.FakeGpuState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shared set-up for tests that run jobs through the local agent: a node home in a temporary
 * directory, launch and query helpers, and a clean-up that kills every job group left over.
 */
abstract class LocalJobs {

    static final String ROOT = "~/.nvidb/jobs";
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;
    Path home;
    Path state;
    LocalAgent agent;
    private final List<Long> groups = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeEach
    void startNode() throws IOException {
        home = Files.createDirectories(dir.resolve("home"));
        state = FakeGpuState.create().gpu(0, "NVIDIA H100", 81559).writeTo(dir.resolve("gpus.state"));
        agent = new LocalAgent(home, state, dir);
    }

    @AfterEach
    void killLeftovers() {
        for (long group : groups) {
            run("kill", "-KILL", "--", "-" + group);
            run("pkill", "-KILL", "-s", String.valueOf(group)); // the job runs in a group of its own in that session
        }
    }

    /**
     * A launch of attempt 1 of job {@code id} running {@code command} in its attempt directory
     * (where these tests put gate files and result.json; a job's default working directory is
     * work/ below it, see {@link #launchInWorkDir}).
     */
    LaunchRequest launch(long id, String command) {
        return launchInWorkDir(id, "cd \"$NVIDB_JOB_DIR\" || exit 1; " + command);
    }

    /** A launch of attempt 1 of job {@code id} running {@code command} as a user's job runs: in work/. */
    LaunchRequest launchInWorkDir(long id, String command) {
        JobSpec spec = new JobSpec("job-" + id, command, 0, 0, null, null, Map.of(), List.of(), null, 0, List.of(),
                "tester@here");
        Assignment assignment = new Assignment("local", List.of(), List.of(), 1, "token-" + id);
        return new LaunchRequest(id, 1, "token-" + id, JobQuery.directory(ROOT, id, 1),
                RunScript.render(id, spec, assignment));
    }

    List<LaunchReport> launchAll(LaunchRequest... launches) {
        List<LaunchReport> reports = agent.send(AgentRequest.probe(ROOT).withoutSnapshot()
                .withLaunches(Arrays.asList(launches))).launches();
        reports.stream().filter(report -> report.wrapper() != null).forEach(report -> groups.add(report.wrapper().pid()));
        assertEquals(launches.length, reports.size());
        return reports;
    }

    JobReport query(LaunchRequest launch) {
        return agent.send(AgentRequest.probe(ROOT).withoutSnapshot().withJobs(List.of(launch.query())))
                .findJob(launch.id()).orElseThrow();
    }

    JobReport awaitEnd(LaunchRequest launch) {
        return Polling.until(TIMEOUT, () -> query(launch), report -> report.status() != JobReport.Status.RUNNING,
                "job " + launch.id() + " to end");
    }

    Path jobDir(long id) {
        return home.resolve(".nvidb/jobs/" + id + "/1");
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A /proc file as text (bytes that are not UTF-8 replaced), "" once the process is gone. */
    static String readProc(Path file) {
        try {
            return new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            return ""; // the process ended between listing /proc and reading it (ENOENT or ESRCH)
        }
    }

    static String permissions(Path file) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }

    /** True while the process exists and is not a zombie. */
    static boolean isRunning(long pid) {
        String stat = readProc(Path.of("/proc/" + pid + "/stat"));
        return !stat.isEmpty() && stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
    }

    /** The pids of live wrapper processes whose working directory is {@code jobDir}. */
    static List<Long> wrappersOf(Path jobDir) {
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            return all.filter(process -> isRunning(process.pid()))
                    .filter(process -> readProc(Path.of("/proc/" + process.pid() + "/cmdline")).contains("nvidb-wrapper"))
                    .filter(process -> jobDir.equals(cwd(process.pid())))
                    .map(ProcessHandle::pid).toList();
        }
    }

    private static Path cwd(long pid) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/" + pid + "/cwd"));
        } catch (IOException e) {
            return null;
        }
    }

    /** Kills this process group (and its session) when the test ends. */
    void remember(long group) {
        groups.add(group);
    }

    /** Kills every job started so far (SIGKILL to each group and session) and waits until their wrappers are gone. */
    void killAll() {
        killLeftovers();
        for (long group : groups) {
            Polling.until(TIMEOUT, () -> isRunning(group), running -> !running, "wrapper " + group + " to end");
        }
        groups.clear();
    }

    /** What {@code command} printed on stdout and stderr. */
    static String output(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String text = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            process.waitFor();
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static void run(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            process.waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
