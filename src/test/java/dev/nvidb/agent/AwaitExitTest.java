package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.testing.HomeSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The agent's {@code await_exit} request, through the real agent: it answers as soon as a
 * watched job has its exit status (not at the end of its time), names what it found, answers
 * with nothing once its time is up, and changes nothing on the node.
 */
class AwaitExitTest extends LocalJobs {

    /** Far longer than any of these waits should take: reaching it means the agent did not look. */
    private static final Duration NEVER = Duration.ofSeconds(10);

    @Test
    void answersOnceAWatchedJobHasExitedNotAtTheEndOfItsTime() throws Exception {
        LaunchRequest launch = launch(1, "sleep 0.3");
        launchAll(launch);
        String dir = JobQuery.directory(ROOT, 1, 1);

        // The agent allows 10 s at most; were the exit not seen, the answer would come at the end of them.
        String reply = assertTimeoutPreemptively(NEVER.minusSeconds(4), () -> agent.sendRaw(
                ExitWatch.request(List.of(dir), NEVER)));

        assertEquals(Optional.of(List.of(dir)), ExitWatch.exited(reply.getBytes(StandardCharsets.UTF_8)), reply);
        assertTrue(Files.exists(jobDir(1).resolve("exit")));
        assertEquals(JobReport.Status.EXITED, query(launch).status());
    }

    @Test
    void aRunningJobIsNotReportedAndTheAnswerComesWhenTheTimeIsUp() throws Exception {
        LaunchRequest launch = launch(1, "while [ ! -e gate ]; do sleep 0.02; done");
        launchAll(launch);

        String reply = agent.sendRaw(ExitWatch.request(List.of(JobQuery.directory(ROOT, 1, 1)), Duration.ofMillis(200)));

        assertEquals(Optional.of(List.of()), ExitWatch.exited(reply.getBytes(StandardCharsets.UTF_8)), reply);
        assertEquals(JobReport.Status.RUNNING, query(launch).status());
        Files.createFile(jobDir(1).resolve("gate"));
        assertEquals(JobReport.Status.EXITED, awaitEnd(launch).status());
    }

    @Test
    void aDirectoryThatIsGoneIsReportedAtOnceAndNothingOnTheNodeChanges() throws Exception {
        LaunchRequest launch = launch(1, "while [ ! -e gate ]; do sleep 0.02; done");
        launchAll(launch);
        // The job's own start writes jobpgid just after the launch answers: wait for it, so the
        // snapshot compares only what the watch could have done.
        Polling.until(TIMEOUT, () -> read(jobDir(1).resolve("jobpgid")).strip(), text -> !text.isEmpty(), "jobpgid");
        HomeSnapshot before = HomeSnapshot.of(home, null);
        String gone = JobQuery.directory(ROOT, 7, 1);

        String reply = assertTimeoutPreemptively(NEVER.minusSeconds(4), () -> agent.sendRaw(
                ExitWatch.request(List.of(JobQuery.directory(ROOT, 1, 1), gone), NEVER)));

        assertEquals(Optional.of(List.of(gone)), ExitWatch.exited(reply.getBytes(StandardCharsets.UTF_8)), reply);
        assertEquals("", before.differences(HomeSnapshot.of(home, null)), "the watch wrote nothing");
        Files.createFile(jobDir(1).resolve("gate"));
        awaitEnd(launch);
    }

    @Test
    void aMalformedRequestGetsAnErrorAndNoList() {
        for (String request : List.of("{\"await_exit\": {\"dirs\": \"~/x\", \"ms\": 10}}",
                "{\"await_exit\": {\"dirs\": [\"~/x\"], \"ms\": \"10\"}}",
                "{\"await_exit\": {\"dirs\": [1], \"ms\": 10}}",
                "{\"await_exit\": {\"dirs\": [\"~/x\"], \"ms\": true}}")) {
            String reply = agent.sendRaw(request);
            assertTrue(reply.contains("\"error\":\"bad request: 'await_exit' needs"), request + " -> " + reply);
            assertEquals(Optional.empty(), ExitWatch.exited(reply.getBytes(StandardCharsets.UTF_8)), reply);
        }
    }
}
