package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.agent.JobReport.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A job's life on a node, through the real agent started as a probe starts it: launch,
 * running, exited with its status, progress, result and log tail; idempotent launches;
 * refused tokens; vanished and missing jobs; a job outliving the agent.
 */
class JobLifecycleTest extends LocalJobs {

    @Test
    void launchedJobRunsThenExitsWithCodeProgressResultAndStderrTail() throws Exception {
        LaunchRequest launch = launch(1, "while [ ! -e gate ]; do sleep 0.02; done; "
                + "echo 'step 1' >> \"$NVIDB_STATUS_FILE\"; printf 'step 2/3\\n\\n' >> \"$NVIDB_STATUS_FILE\"; "
                + "echo '{\"loss\": 0.5, \"name\": \"ü\"}' > result.json; "
                + "for i in $(seq 1 30); do echo \"err $i\" >&2; done; echo out; exit 7");

        LaunchReport started = launchAll(launch).get(0);
        assertEquals(LaunchReport.Outcome.STARTED, started.outcome(), String.valueOf(started.error()));
        JobReport running = query(launch);
        assertEquals(Status.RUNNING, running.status());
        assertEquals(started.wrapper(), running.wrapper());
        assertEquals(running.wrapper().pid(), running.wrapper().pgid(), "the wrapper leads its process group");
        assertEquals(Files.readString(java.nio.file.Path.of("/proc/sys/kernel/random/boot_id")).strip(),
                running.wrapper().bootId());

        Files.createFile(jobDir(1).resolve("gate"));
        JobReport exited = awaitEnd(launch);

        assertEquals(Status.EXITED, exited.status());
        assertEquals(7, exited.exitCode());
        assertNotNull(exited.finishedAt());
        assertFalse(exited.finishedAt().isBefore(started.wrapper().startedAt().minusSeconds(1)));
        assertTrue(exited.finishedAt().isBefore(Instant.now().plusSeconds(5)));
        assertEquals("step 2/3", exited.progress());
        assertEquals("{\"loss\":0.5,\"name\":\"ü\"}", exited.result());
        assertNull(exited.resultError());
        List<String> tail = exited.logTail().lines().toList();
        assertEquals(20, tail.size());
        assertEquals("err 11", tail.get(0));
        assertEquals("err 30", tail.get(19));
    }

    @Test
    void successfulJobHasNoLogTailAndBadResultJsonIsNamed() throws Exception {
        LaunchRequest launch = launch(2, "echo hello; echo 'not json' > result.json");
        launchAll(launch);

        JobReport exited = awaitEnd(launch);

        assertEquals(0, exited.exitCode());
        assertNull(exited.logTail());
        assertNull(exited.failureLog(), "a job that exited 0 sends no failure log");
        assertNull(exited.result());
        assertTrue(exited.resultError().startsWith("result.json is not valid JSON"), exited.resultError());
        assertEquals("hello\n", Files.readString(jobDir(2).resolve("stdout.log")));
    }

    @Test
    void failedJobWithoutStderrFallsBackToStdoutTail() throws Exception {
        LaunchRequest launch = launch(3, "echo 'only on stdout'; exit 1");
        launchAll(launch);

        assertEquals("only on stdout", awaitEnd(launch).logTail());
    }

    /** The end of both logs travels with a non-zero exit, bounded to 16 KiB each, for the failure class. */
    @Test
    void failedJobSendsTheEndOfBothLogsForItsFailureClass() throws Exception {
        LaunchRequest launch = launch(50, "head -c 40000 /dev/zero | tr '\\0' x; echo; echo 'CUDA out of memory' >&2; exit 1");
        launchAll(launch);

        JobReport exited = awaitEnd(launch);
        assertTrue(exited.failureLog().startsWith("CUDA out of memory\n"), exited.failureLog().substring(0, 40));
        assertTrue(exited.failureLog().length() <= 19 + 1 + 16 * 1024, "bounded: " + exited.failureLog().length());
        assertTrue(exited.failureLog().endsWith("xxx\n"));
    }

    @Test
    void launchingTheSameTokenTwiceAdoptsTheOneProcess() throws Exception {
        LaunchRequest launch = launch(4, "echo started >> ../starts; while [ ! -e gate ]; do sleep 0.02; done");

        LaunchReport first = launchAll(launch).get(0);
        LaunchReport second = launchAll(launch).get(0);
        LaunchReport third = agent.send(AgentRequest.probe(ROOT).withLaunches(List.of(launch, launch)))
                .launches().get(1);

        assertEquals(LaunchReport.Outcome.STARTED, first.outcome());
        assertEquals(LaunchReport.Outcome.ADOPTED, second.outcome());
        assertEquals(LaunchReport.Outcome.ADOPTED, third.outcome());
        assertEquals(first.wrapper(), second.wrapper());
        Polling.until(TIMEOUT, () -> read(jobDir(4).resolveSibling("starts")), text -> !text.isEmpty(),
                "the job to start");
        assertEquals(List.of(first.wrapper().pid()), wrappersOf(jobDir(4)), "one wrapper process only");
        Files.createFile(jobDir(4).resolve("gate"));
        assertEquals(0, awaitEnd(launch).exitCode());
        assertEquals("started\n", read(jobDir(4).resolveSibling("starts")), "the job ran once");
    }

    @Test
    void anotherTokenInTheSameDirectoryIsRefused() throws Exception {
        LaunchRequest launch = launch(5, "true");
        launchAll(launch);
        LaunchRequest intruder = new LaunchRequest(5, 1, "another-token", launch.dir(), launch.script());

        LaunchReport refused = launchAll(intruder).get(0);

        assertEquals(LaunchReport.Outcome.FAILED, refused.outcome());
        assertTrue(refused.error().contains("another launch token"), refused.error());
        assertNull(refused.wrapper());
        assertEquals(Status.MISSING, query(intruder).status());
        assertEquals(Status.EXITED, awaitEnd(launch).status());
    }

    @Test
    void twoHundredShortJobsAllExitNoneVanishes() throws Exception {
        List<LaunchRequest> launches = new java.util.ArrayList<>();
        for (int id = 100; id < 300; id++) {
            launches.add(launch(id, id % 2 == 0 ? "true" : "exit 3"));
        }
        List<JobQuery> queries = launches.stream().map(LaunchRequest::query).toList();
        AgentRequest probe = AgentRequest.probe(ROOT).withJobs(queries);

        ProbeReply first = agent.send(probe.withLaunches(launches));
        assertTrue(first.launches().stream().allMatch(l -> l.outcome() == LaunchReport.Outcome.STARTED));
        List<JobReport> reports = first.jobs();
        while (reports.stream().anyMatch(report -> report.status() == Status.RUNNING)) {
            assertNoneVanished(reports);
            reports = agent.send(probe).jobs();
        }

        assertNoneVanished(reports);
        assertEquals(200, reports.size());
        for (JobReport report : reports) {
            assertEquals(Status.EXITED, report.status(), "job " + report.id());
            assertEquals(report.id() % 2 == 0 ? 0 : 3, report.exitCode(), "job " + report.id());
        }
    }

    @Test
    void jobWhoseWrapperWasKilledRunsOnUntilItsProcessesEndThenIsVanished() throws Exception {
        LaunchRequest launch = launch(6, "echo 'about to be lost' >&2; sleep 300");
        LaunchReport started = launchAll(launch).get(0);
        Polling.until(TIMEOUT, () -> read(jobDir(6).resolve("stderr.log")), text -> !text.isEmpty(), "stderr");
        long group = Long.parseLong(Polling.until(TIMEOUT, () -> read(jobDir(6).resolve("jobpgid")).strip(),
                text -> !text.isEmpty(), "jobpgid"));

        run("kill", "-KILL", String.valueOf(started.wrapper().pid()));
        Polling.until(TIMEOUT, () -> isRunning(started.wrapper().pid()), running -> !running, "the wrapper to die");
        JobReport orphaned = query(launch);
        assertEquals(Status.RUNNING, orphaned.status(), "its job still runs: " + orphaned.reason());
        assertEquals(started.wrapper().pid(), orphaned.wrapper().pid());

        run("kill", "-KILL", "--", "-" + group);
        JobReport vanished = Polling.until(TIMEOUT, () -> query(launch), report -> report.status() != Status.RUNNING,
                "the job to die");
        assertEquals(Status.VANISHED, vanished.status());
        assertNull(vanished.exitCode());
        assertEquals("about to be lost", vanished.logTail());
        assertFalse(Files.exists(jobDir(6).resolve("exit")));
    }

    /**
     * What an agent killed mid-launch leaves when it died after recording the launch and before
     * its wrapper armed: the ledger entry and the token, no wrapper, no "armed", no pid, no exit.
     * The job never ran, so it is missing (to be launched again), not vanished; the launch that
     * follows starts it, once, after the moment a wrapper the dead agent forked could still exec.
     */
    @Test
    void aLaunchCutShortBeforeTheWrapperArmedIsMissingAndTheNextLaunchRunsItOnce() throws Exception {
        for (long id : List.of(11L, 12L)) {
            LaunchRequest launch = launch(id, "echo ran >> ../runs");
            Path attempt = jobDir(id);
            Files.createDirectories(attempt, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
            Files.writeString(attempt.resolve("token"), launch.token() + "\n");
            Path ledger = Files.createDirectories(home.resolve(".nvidb/jobs/.launched"));
            // 11: its agent died long ago; 12: just now (the next launch waits the moment out).
            double launchedAt = Instant.now().minusSeconds(id == 11 ? 60 : 0).toEpochMilli() / 1000.0;
            Files.writeString(ledger.resolve(launch.token()), "{\"dir\": \"" + attempt.toRealPath()
                    + "\", \"launched_at\": " + launchedAt + "}\n");

            JobReport cutShort = query(launch);
            assertEquals(Status.MISSING, cutShort.status(), cutShort.reason());
            assertEquals("its launch was cut short before the job started", cutShort.reason());

            LaunchReport started = launchAll(launch).get(0);
            assertEquals(LaunchReport.Outcome.STARTED, started.outcome(), started.error());
            assertEquals(0, awaitEnd(launch).exitCode());
            assertEquals("ran\n", read(attempt.resolveSibling("runs")), "the job ran once");
            assertEquals(LaunchReport.Outcome.ADOPTED, launchAll(launch).get(0).outcome(), "and is never started again");
        }
    }

    @Test
    void directoryWithoutTokenOrWithoutDirectoryIsMissing() throws Exception {
        Files.createDirectories(jobDir(7));
        JobQuery noToken = new JobQuery(7, 1, "token-7", JobQuery.directory(ROOT, 7, 1));
        JobQuery noDirectory = new JobQuery(8, 1, "token-8", JobQuery.directory(ROOT, 8, 1));

        ProbeReply reply = agent.send(AgentRequest.probe(ROOT).withJobs(List.of(noToken, noDirectory)));

        assertEquals(Status.MISSING, reply.findJob(7).orElseThrow().status());
        assertEquals(Status.MISSING, reply.findJob(8).orElseThrow().status());
        assertNotNull(reply.findJob(8).orElseThrow().reason());
        assertTrue(reply.agentAnswered());
    }

    @Test
    void jobOutlivesTheAgentAndItsPipes() throws Exception {
        LaunchRequest launch = launch(9, "while [ ! -e gate ]; do sleep 0.02; done; echo finished");

        long start = System.nanoTime();
        LaunchReport started = launchAll(launch).get(0);  // returns only once nothing holds the agent's stdout
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(20)) < 0);

        assertEquals(Status.RUNNING, query(launch).status());
        assertTrue(isRunning(started.wrapper().pid()));
        Files.createFile(jobDir(9).resolve("gate"));
        assertEquals(0, awaitEnd(launch).exitCode());
        assertEquals("finished\n", read(jobDir(9).resolve("stdout.log")));
    }

    @Test
    void attemptDirectoryAndItsFilesArePrivate() throws Exception {
        LaunchRequest launch = launch(10, "echo secret");
        launchAll(launch);
        awaitEnd(launch);

        assertEquals("rwx------", permissions(jobDir(10)));
        assertEquals("rwx------", permissions(jobDir(10).resolve("run.sh")));
        for (String file : List.of("token", "pid", "stdout.log", "stderr.log", "exit")) {
            assertEquals("rw-------", permissions(jobDir(10).resolve(file)), file);
        }
    }

    private static void assertNoneVanished(List<JobReport> reports) {
        for (JobReport report : reports) {
            assertFalse(report.status() == Status.VANISHED || report.status() == Status.MISSING,
                    "job " + report.id() + " reported " + report.status() + ": " + report.reason());
        }
    }
}
