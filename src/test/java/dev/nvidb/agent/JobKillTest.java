package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.agent.JobReport.Status;
import dev.nvidb.agent.KillReport.Outcome;
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
