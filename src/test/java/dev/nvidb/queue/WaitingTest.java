package dev.nvidb.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.InterruptedByUser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The wait use case, driven by a scripted pause and a settable clock: no sleeps. */
class WaitingTest {

    @TempDir
    Path home;

    @Test
    void reportsEveryRefreshedListAndEndsWhenEveryJobHasEnded() throws Exception {
        try (QueueFixture fixture = new QueueFixture(home)) {
            long first = fixture.submit("a");
            long second = fixture.submit("b");
            fixture.pause.during(() -> {
                if (fixture.pause.pauses.size() == 2) {
                    fixture.queue.control().cancel(List.of(first));
                } else if (fixture.pause.pauses.size() == 3) {
                    fixture.queue.control().cancel(List.of(second));
                }
            });
            List<String> seen = new ArrayList<>();
            Waiting.Outcome outcome = fixture.queue.waiting().await(List.of(first, second), null, false,
                    jobs -> seen.add(String.join(",", jobs.stream().map(job -> job.job().state().key()).toList())));
            assertEquals(List.of("pending,pending", "pending,pending", "cancelled,pending", "cancelled,cancelled"), seen);
            assertFalse(outcome.timedOut());
            assertFalse(outcome.allCompleted());
            assertEquals(List.of(first, second), outcome.jobs().stream().map(JobView::id).toList());
            assertEquals(List.of(Duration.ofMillis(50), Duration.ofMillis(50), Duration.ofMillis(50)),
                    fixture.pause.pauses, "50 ms pauses for the first half second");
        }
    }

    @Test
    void givesUpOnceTheTimeoutHasPassedOnTheClock() throws Exception {
        try (QueueFixture fixture = new QueueFixture(home)) {
            long job = fixture.submit("a");
            Waiting.Outcome outcome = fixture.queue.waiting().await(List.of(job), Duration.ofSeconds(30), false,
                    jobs -> { });
            assertTrue(outcome.timedOut());
            assertEquals("pending", outcome.jobs().get(0).job().state().key());
            Duration waited = fixture.pause.pauses.stream().reduce(Duration.ZERO, Duration::plus);
            assertTrue(waited.compareTo(Duration.ofSeconds(30)) > 0 && waited.compareTo(Duration.ofSeconds(32)) < 0,
                    "waited " + waited);
            assertEquals(Duration.ofSeconds(1), fixture.pause.pauses.get(fixture.pause.pauses.size() - 1),
                    "the pause stops growing at one second");
            assertEquals(List.of(50L, 50L, 50L, 50L, 50L, 50L, 50L, 50L, 50L, 50L, 75L, 112L, 168L),
                    fixture.pause.pauses.subList(0, 13).stream().map(Duration::toMillis).toList(),
                    "after half a second of 50 ms pauses they grow by half");
        }
    }

    @Test
    void jobsThatAlreadyEndedAreReportedWithoutPausing() throws Exception {
        try (QueueFixture fixture = new QueueFixture(home)) {
            long job = fixture.submit("a");
            fixture.queue.control().cancel(List.of(job));
            List<Integer> calls = new ArrayList<>();
            Waiting.Outcome outcome = fixture.queue.waiting().await(List.of(job), Duration.ZERO, true,
                    jobs -> calls.add(jobs.size()));
            assertFalse(outcome.timedOut());
            assertEquals(List.of(1), calls);
            assertEquals(List.of(), fixture.pause.pauses);
        }
    }

    @Test
    void aRunningJobIsWaitedForOnItsNodesAgentAndTheWaitEndsWithItsEnd() throws Exception {
        try (QueueFixture fixture = new QueueFixture(home);
             Ticking.AgentScope agents = fixture.queue.ticking().keepAgents()) {
            long job = fixture.submit("a", "sleep 0.4");
            fixture.queue.ticking().now();   // launches it on the local node
            assertEquals("running", fixture.queue.reading().getJob(job).job().state().key());

            // The fixture's clock stands still: only the node's agent can tell this wait that the job ended.
            // (Were the end never seen, this wait would go on for ever: bounded here.)
            Waiting.Outcome outcome = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> fixture.queue.waiting().await(List.of(job), null, true, jobs -> { }));

            assertTrue(outcome.allCompleted(), outcome.jobs().get(0).job().state().key());
            assertEquals(List.of(), fixture.pause.pauses, "the wait was spent on the node's agent, never in a pause");
        }
    }

    @Test
    void withoutAgentsOfItsOwnAWaitPausesAsBefore() throws Exception {
        try (QueueFixture fixture = new QueueFixture(home)) {
            long job = fixture.submit("a", "sleep 0.4");
            fixture.queue.ticking().now();
            assertEquals("running", fixture.queue.reading().getJob(job).job().state().key());
            // The job runs in real time; the pauses move the fixture's clock, so the ticks come and see its end.
            Waiting.Outcome outcome = fixture.queue.waiting().await(List.of(job), null, true, jobs -> { });

            assertTrue(outcome.allCompleted(), outcome.jobs().get(0).job().state().key());
            assertFalse(fixture.pause.pauses.isEmpty(), "no agents of its own to watch with: it paused between ticks");
        }
    }

    @Test
    void anInterruptedPauseEndsTheCommandWithTheInterruptKept() {
        Thread.currentThread().interrupt();
        InterruptedByUser interrupted = assertThrows(InterruptedByUser.class,
                () -> Pause.sleeping().pause(Duration.ofMinutes(1)));
        assertEquals(130, interrupted.exitCode());
        assertTrue(Thread.interrupted(), "the interrupt flag is restored");
    }
}
