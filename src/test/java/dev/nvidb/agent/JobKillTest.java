package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.agent.JobReport.Status;
import dev.nvidb.agent.KillReport.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Killing jobs through the real agent: TERM to the whole process group with the exit status
 * recorded, KILL after the grace for a job that ignores TERM, and never a signal to a
 * process whose identity does not match.
 */
class JobKillTest extends LocalJobs {

    private static final String SPAWNS_A_CHILD = "sleep 300 & echo $! > child.pid; wait";

    @Test
    void termReachesTheWholeProcessGroupAndTheStatusIsRecorded() {
        LaunchRequest launch = launch(1, SPAWNS_A_CHILD);
        LaunchReport started = launchAll(launch).get(0);
        long child = childPid(1);

        KillReport kill = kill(KillRequest.of(1, launch.dir(), started.wrapper(), Duration.ofSeconds(10)));

        assertEquals(Outcome.SIGNALLED, kill.outcome(), kill.reason());
        JobReport ended = awaitEnd(launch);
        assertEquals(Status.EXITED, ended.status());
        assertEquals(143, ended.exitCode());
        Polling.until(TIMEOUT, () -> isRunning(child), running -> !running, "the job's child to die");
    }

    @Test
    void jobIgnoringTermIsKilledAfterTheGraceWithoutHoldingTheReply() {
        LaunchRequest launch = launch(2, "trap '' TERM; " + SPAWNS_A_CHILD);
        LaunchReport started = launchAll(launch).get(0);
        long child = childPid(2);

        long start = System.nanoTime();
        KillReport kill = kill(KillRequest.of(2, launch.dir(), started.wrapper(), Duration.ofSeconds(3)));
        Duration replied = Duration.ofNanos(System.nanoTime() - start);

        assertEquals(Outcome.SIGNALLED, kill.outcome());
        assertTrue(replied.compareTo(Duration.ofMillis(2500)) < 0, "the reply waited for the grace: " + replied);
        assertEquals(Status.RUNNING, query(launch).status(), "TERM is ignored during the grace");
        JobReport ended = awaitEnd(launch);
        assertEquals(Status.EXITED, ended.status(), "the wrapper survives to record the KILL");
        assertEquals(137, ended.exitCode());
        Polling.until(TIMEOUT, () -> isRunning(child), running -> !running, "the job's child to die");
    }

    @Test
    void reusedPidIsNotOursAndIsNeverSignalled() {
        LaunchRequest launch = launch(3, SPAWNS_A_CHILD);
        WrapperProcess wrapper = launchAll(launch).get(0).wrapper();
        long child = childPid(3);
        WrapperProcess impostor = new WrapperProcess(wrapper.pid(), wrapper.pgid(), wrapper.startTicks() + 1,
                wrapper.bootId(), wrapper.startedAt());

        KillReport kill = kill(KillRequest.of(3, launch.dir(), impostor, Duration.ZERO));

        assertEquals(Outcome.NOT_OURS, kill.outcome());
        assertEquals(Status.RUNNING, query(launch).status());
        assertTrue(isRunning(child));
        assertFalse(read(jobDir(3).resolve("exit")).length() > 0);
    }

    @Test
    void processOfAnotherDirectoryIsNotOurs() {
        LaunchRequest launch = launch(4, SPAWNS_A_CHILD);
        WrapperProcess wrapper = launchAll(launch).get(0).wrapper();
        childPid(4);

        KillReport kill = kill(KillRequest.of(4, JobQuery.directory(ROOT, 99, 1), wrapper, Duration.ZERO));

        assertEquals(Outcome.NOT_OURS, kill.outcome());
        assertEquals(Status.RUNNING, query(launch).status());
    }

    @Test
    void finishedJobIsGoneAndANodeRestartIsGone() {
        LaunchRequest launch = launch(5, "true");
        WrapperProcess wrapper = launchAll(launch).get(0).wrapper();
        awaitEnd(launch);
        WrapperProcess otherBoot = new WrapperProcess(wrapper.pid(), wrapper.pgid(), wrapper.startTicks(),
                "another-boot", wrapper.startedAt());

        assertEquals(Outcome.GONE, kill(KillRequest.of(5, launch.dir(), wrapper, Duration.ZERO)).outcome());
        assertEquals(Outcome.GONE, kill(KillRequest.of(5, launch.dir(), otherBoot, Duration.ZERO)).outcome());
    }

    /**
     * A kill that lands after the job ended, while its wrapper records the exit status, finds
     * no job group and must leave the wrapper's helpers (the rename of the status file) alone:
     * they run in the wrapper's own group. A rename killed half-way once left an attempt
     * with no status at all when a second kill followed.
     */
    @Test
    void aKillWhileTheWrapperRecordsTheStatusLeavesItsHelpersAlone() throws IOException {
        Path shim = dir.resolve("python-bin/mv");  // first on the agent's PATH: the wrapper's mv
        Files.writeString(shim, """
                #!/bin/sh
                case "$*" in
                  *exit.slot*) : >mv.waiting; while [ ! -e mv.go ]; do sleep 0.02; done ;;
                esac
                exec /bin/mv "$@"
                """);
        shim.toFile().setExecutable(true);
        LaunchRequest launch = launch(6, "true");
        WrapperProcess wrapper = launchAll(launch).get(0).wrapper();
        Polling.until(TIMEOUT, () -> Files.exists(jobDir(6).resolve("mv.waiting")), waiting -> waiting,
                "the wrapper to record the status");

        KillReport kill = kill(KillRequest.of(6, launch.dir(), wrapper, Duration.ofSeconds(10)));
        Files.writeString(jobDir(6).resolve("mv.go"), "");

        assertEquals(Outcome.SIGNALLED, kill.outcome(), kill.reason());
        JobReport ended = awaitEnd(launch);
        assertEquals(Status.EXITED, ended.status());
        assertEquals(0, ended.exitCode(), "the job's own status, not a kill's");
        assertFalse(Files.exists(jobDir(6).resolve("exit.slot")), "the rename of exit.slot was interrupted");
    }

    private KillReport kill(KillRequest request) {
        List<KillReport> kills = agent.send(AgentRequest.probe(ROOT).withoutSnapshot().withKills(List.of(request)))
                .kills();
        assertEquals(1, kills.size());
        return kills.get(0);
    }

    private long childPid(long id) {
        String pid = Polling.until(TIMEOUT, () -> read(jobDir(id).resolve("child.pid")), text -> text.endsWith("\n"),
                "the job to start its child");
        return Long.parseLong(pid.strip());
    }
}
