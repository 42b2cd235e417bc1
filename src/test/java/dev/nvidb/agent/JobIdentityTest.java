package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.agent.JobReport.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A job is alive while its recorded process is, whatever happens to its files; an attempt is
 * launched at most once, ever (issue 7, items 1 and 2). Through the real agent, as a probe
 * starts it: the attempt directory removed, renamed, or emptied by the job itself, and the
 * wrapper killed while the job runs on.
 */
class JobIdentityTest extends LocalJobs {

    @Test
    void runningJobWhoseDirectoryWasRemovedIsStillRunningAndIsNeverLaunchedAgain() throws Exception {
        Path counter = dir.resolve("runs-1");
        LaunchRequest launch = launch(1, "echo run >> " + quoted(counter) + "; sleep 300");
        WrapperProcess wrapper = launchAll(launch).get(0).wrapper();
        Polling.until(TIMEOUT, () -> read(counter), text -> !text.isEmpty(), "the job to start");

        deleteTree(jobDir(1));

        JobReport known = agent.send(AgentRequest.probe(ROOT).withoutSnapshot()
                .withJobs(List.of(withProcess(launch, wrapper)))).findJob(1).orElseThrow();
        assertEquals(Status.RUNNING, known.status(), "by the process the queue recorded: " + known.reason());
        JobReport unknown = query(launch);
        assertEquals(Status.RUNNING, unknown.status(), "by the ledger, when the launch reply was lost: "
                + unknown.reason());
        assertEquals(wrapper.pid(), unknown.wrapper().pid());

        LaunchReport again = launchAll(launch).get(0);
        assertEquals(LaunchReport.Outcome.ADOPTED, again.outcome(), String.valueOf(again.error()));
        assertEquals(wrapper.pid(), again.wrapper().pid());
        assertEquals("run\n", read(counter), "one run only");
    }

    @Test
    void jobInARenamedDirectoryIsKilledByItsTokenAndThenVanishedNotMissing() throws Exception {
        LaunchRequest launch = launch(2, "sleep 300 & echo $! > child.pid; wait");
        WrapperProcess wrapper = launchAll(launch).get(0).wrapper();
        long child = Long.parseLong(Polling.until(TIMEOUT, () -> read(jobDir(2).resolve("child.pid")),
                text -> text.endsWith("\n"), "the job's child").strip());
        Files.move(jobDir(2), jobDir(2).resolveSibling("moved-away"));

        KillReport kill = agent.send(AgentRequest.probe(ROOT).withoutSnapshot().withKills(List.of(
                KillRequest.of(2, launch.dir(), wrapper, Duration.ofSeconds(5)).withToken(launch.token()))))
                .kills().get(0);
        assertEquals(KillReport.Outcome.SIGNALLED, kill.outcome(), kill.reason());
        Polling.until(TIMEOUT, () -> isRunning(child), running -> !running, "the job's child to die");

        JobReport ended = Polling.until(TIMEOUT, () -> query(launch), report -> report.status() != Status.RUNNING,
                "the job to end");
        assertEquals(Status.VANISHED, ended.status(), "its exit file went with the directory: " + ended.reason());
        assertEquals(LaunchReport.Outcome.ADOPTED, launchAll(launch).get(0).outcome(), "never launched twice");
        assertFalse(Files.exists(jobDir(2)));
    }

    @Test
    void killWithoutTheTokenOfAWrapperOutsideItsDirectoryIsNotOurs() throws Exception {
        LaunchRequest launch = launch(3, "sleep 300");
        WrapperProcess wrapper = launchAll(launch).get(0).wrapper();

        KillReport kill = agent.send(AgentRequest.probe(ROOT).withoutSnapshot().withKills(List.of(
                KillRequest.of(3, JobQuery.directory(ROOT, 99, 1), wrapper, Duration.ZERO).withToken("token-99"))))
                .kills().get(0);

        assertEquals(KillReport.Outcome.NOT_OURS, kill.outcome());
        assertEquals(Status.RUNNING, query(launch).status());
    }

    @Test
    void jobThatEmptiesItsWorkingDirectoryRunsOnceAndCompletes() throws Exception {
        Path counter = dir.resolve("runs-4");
        LaunchRequest launch = launchInWorkDir(4, "echo run >> " + quoted(counter)
                + "; touch a .hidden; mkdir sub; rm -rf ./* ./.[!.]*; echo cleaned; exit 0");
        launchAll(launch);

        JobReport ended = awaitEnd(launch);
        assertEquals(Status.EXITED, ended.status(), ended.reason());
        assertEquals(0, ended.exitCode());
        assertEquals("run\n", read(counter));
        assertEquals("cleaned\n", read(jobDir(4).resolve("stdout.log")));
        for (String file : List.of("token", "pid", "run.sh", "exit")) {
            assertTrue(Files.exists(jobDir(4).resolve(file)), file + " is out of the job's way");
        }
        assertEquals(List.of(), list(jobDir(4).resolve("work")));
    }

    @Test
    void jobThatDeletesTheQueuesFilesToo() throws Exception {
        Path counter = dir.resolve("runs-5");
        LaunchRequest launch = launchInWorkDir(5, "echo run >> " + quoted(counter)
                + "; rm -rf \"$NVIDB_JOB_DIR\"/* \"$NVIDB_JOB_DIR\"/.[!.]*; exit 4");
        WrapperProcess wrapper = launchAll(launch).get(0).wrapper();
        Polling.until(TIMEOUT, () -> read(counter), text -> !text.isEmpty(), "the job to start");

        JobReport ended = Polling.until(TIMEOUT, () -> agent.send(AgentRequest.probe(ROOT).withoutSnapshot()
                        .withJobs(List.of(withProcess(launch, wrapper)))).findJob(5).orElseThrow(),
                report -> report.status() != Status.RUNNING, "the job to end");
        assertTrue(ended.status() == Status.VANISHED || ended.status() == Status.EXITED, ended.status().toString());
        assertEquals(LaunchReport.Outcome.ADOPTED, launchAll(launch).get(0).outcome());
        assertEquals("run\n", read(counter), "one run only");
    }

    @Test
    void launchCutShortBeforeItsWrapperStartedIsNotLaunchedAgain() throws Exception {
        LaunchRequest launch = launch(6, "echo ran > " + quoted(dir.resolve("ran-6")));
        Path ledger = home.resolve(".nvidb/jobs/.launched");
        Files.createDirectories(ledger);
        Files.writeString(ledger.resolve(launch.token()), "{\"dir\": \"" + jobDir(6) + "\", \"launched_at\": 1}\n");

        JobReport report = query(launch);
        assertEquals(Status.VANISHED, report.status(), "the ledger knows it was launched: " + report.reason());
        LaunchReport again = launchAll(launch).get(0);
        assertEquals(LaunchReport.Outcome.ADOPTED, again.outcome());
        assertFalse(Files.exists(dir.resolve("ran-6")));
    }

    @Test
    void orphanedJobIsKilledThroughItsSession() throws Exception {
        LaunchRequest launch = launch(7, "sleep 300 & echo $! > child.pid; wait");
        WrapperProcess wrapper = launchAll(launch).get(0).wrapper();
        long child = Long.parseLong(Polling.until(TIMEOUT, () -> read(jobDir(7).resolve("child.pid")),
                text -> text.endsWith("\n"), "the job's child").strip());
        run("kill", "-KILL", String.valueOf(wrapper.pid()));
        Polling.until(TIMEOUT, () -> isRunning(wrapper.pid()), running -> !running, "the wrapper to die");
        assertEquals(Status.RUNNING, query(launch).status());

        KillReport kill = agent.send(AgentRequest.probe(ROOT).withoutSnapshot().withKills(List.of(
                KillRequest.of(7, launch.dir(), wrapper, Duration.ofSeconds(5)).withToken(launch.token()))))
                .kills().get(0);

        assertEquals(KillReport.Outcome.SIGNALLED, kill.outcome(), kill.reason());
        assertNotNull(kill.reason());
        Polling.until(TIMEOUT, () -> isRunning(child), running -> !running, "the orphaned job to die");
        assertEquals(Status.VANISHED, Polling.until(TIMEOUT, () -> query(launch),
                report -> report.status() != Status.RUNNING, "the job to end").status());
    }

    @Test
    void jobThatEndsLeavingABackgroundProcessIsExited() throws Exception {
        LaunchRequest launch = launch(8, "sleep 300 & echo $! > child.pid; exit 5");
        launchAll(launch);
        long child = Long.parseLong(Polling.until(TIMEOUT, () -> read(jobDir(8).resolve("child.pid")),
                text -> text.endsWith("\n"), "the job's child").strip());
        try {
            JobReport ended = awaitEnd(launch);
            assertEquals(Status.EXITED, ended.status(), "the exit file says it ended: " + ended.reason());
            assertEquals(5, ended.exitCode());
            assertTrue(isRunning(child), "its leftover is not the job");
        } finally {
            run("kill", "-KILL", String.valueOf(child));
        }
    }

    private static JobQuery withProcess(LaunchRequest launch, WrapperProcess wrapper) {
        return new JobQuery(launch.id(), launch.attempt(), launch.token(), launch.dir(),
                new JobQuery.Process(wrapper.pid(), wrapper.pgid(), wrapper.startTicks(), wrapper.bootId()));
    }

    static String quoted(Path path) {
        return ShellQuote.quote(path.toString());
    }

    static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    static List<String> list(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }
}
