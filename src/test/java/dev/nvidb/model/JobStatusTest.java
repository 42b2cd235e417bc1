package dev.nvidb.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.JobStatus.Ended;
import dev.nvidb.model.JobStatus.Outcome;
import dev.nvidb.model.JobStatus.Pending;
import dev.nvidb.model.JobStatus.Running;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The status variants refuse the combinations a job cannot be in. */
class JobStatusTest {

    private static final Instant PLACED = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant ENDED = PLACED.plusSeconds(60);
    private static final Assignment ON_A = new Assignment("gpu-a", List.of(0), List.of("GPU-a0"), 1, "token-1");
    private static final JobSpec SPEC = new JobSpec("train", "python train.py", 1, 1024, null, null, Map.of(),
            List.of(), null, 0, List.of(), "ann@lab");

    @Test
    void pendingIsHeldExactlyWhenItHasAReason() {
        assertFalse(JobStatus.PENDING.held());
        assertTrue(new Pending("disk full on gpu-a").held());
        assertThrows(IllegalArgumentException.class, () -> new Pending(" "));
        assertEquals(JobState.PENDING, new Pending("why").state());
        assertTrue(JobStatus.PENDING.placement().isEmpty());
    }

    @Test
    void runningNeedsItsPlacementAndStartTime() {
        assertThrows(NullPointerException.class, () -> new Running(null, PLACED));
        assertThrows(NullPointerException.class, () -> new Running(ON_A, null));
        Running running = new Running(ON_A, PLACED);
        assertEquals(JobState.RUNNING, running.state());
        assertEquals(ON_A, running.placement().orElseThrow());
    }

    static Stream<Arguments> exitCodes() {
        return Stream.of(
                Arguments.of(Outcome.COMPLETED, 0, true),
                Arguments.of(Outcome.COMPLETED, null, false),
                Arguments.of(Outcome.COMPLETED, 1, false),
                Arguments.of(Outcome.FAILED, 3, true),
                Arguments.of(Outcome.FAILED, null, true),
                Arguments.of(Outcome.FAILED, 0, false),
                Arguments.of(Outcome.CANCELLED, null, true),
                Arguments.of(Outcome.CANCELLED, 143, false),
                Arguments.of(Outcome.TIMEOUT, null, true),
                Arguments.of(Outcome.TIMEOUT, 137, false),
                Arguments.of(Outcome.LOST, null, true),
                Arguments.of(Outcome.LOST, 1, false));
    }

    @ParameterizedTest
    @MethodSource("exitCodes")
    void anExitCodeBelongsToCompletedAndFailedOnly(Outcome outcome, Integer exitCode, boolean allowed) {
        if (allowed) {
            Ended ended = new Ended(outcome, ENDED, exitCode, ON_A, PLACED);
            assertEquals(outcome.state(), ended.state());
            assertEquals(exitCode, ended.exitCode());
        } else {
            assertThrows(IllegalArgumentException.class, () -> new Ended(outcome, ENDED, exitCode, ON_A, PLACED));
        }
    }

    @Test
    void anEndedJobHasItsEndTimeAndBothOrNeitherOfItsLastPlacementAndStart() {
        assertThrows(NullPointerException.class, () -> new Ended(Outcome.LOST, null, null, ON_A, PLACED));
        assertThrows(IllegalArgumentException.class, () -> new Ended(Outcome.LOST, ENDED, null, ON_A, null));
        assertThrows(IllegalArgumentException.class, () -> new Ended(Outcome.LOST, ENDED, null, null, PLACED));
        Ended unschedulable = Ended.beforePlacement(Outcome.FAILED, ENDED);
        assertTrue(unschedulable.placement().isEmpty());
        Ended timedOut = Ended.after(new Running(ON_A, PLACED), Outcome.TIMEOUT, ENDED, null);
        assertEquals(ON_A, timedOut.assignment());
        assertEquals(PLACED, timedOut.startedAt());
    }

    @ParameterizedTest
    @EnumSource(JobState.class)
    void outcomesAreExactlyTheFinalStates(JobState state) {
        if (state.finished()) {
            assertEquals(state, Outcome.of(state).state());
        } else {
            assertThrows(IllegalArgumentException.class, () -> Outcome.of(state));
        }
        assertEquals(Arrays.stream(JobState.values()).filter(JobState::finished).toList(),
                Arrays.stream(Outcome.values()).map(Outcome::state).toList());
    }

    @Test
    void aJobsFlatViewComesFromItsStatus() {
        Job held = new Job(1, SPEC, new Pending("disk full"), 0, PLACED, 1, "launch failed", null, null, null);
        assertTrue(held.held());
        assertEquals("disk full", held.holdReason());
        assertNull(held.assignment());
        assertNull(held.exitCode());

        Job failed = new Job(2, SPEC, new Ended(Outcome.FAILED, ENDED, 2, ON_A, PLACED), 0, PLACED, 1,
                "exited with status 2", null, null, null);
        assertEquals(JobState.FAILED, failed.state());
        assertEquals(2, failed.exitCode());
        assertEquals(ON_A, failed.assignment());
        assertEquals(PLACED, failed.startedAt());
        assertEquals(ENDED, failed.finishedAt());
        assertFalse(failed.held());
        assertNull(failed.holdReason());

        Job requeued = failed.withStatus(JobStatus.PENDING);
        assertEquals(JobState.PENDING, requeued.state());
        assertNull(requeued.startedAt());
        assertNull(requeued.finishedAt());
    }

    @Test
    void aPlacementBelongsToTheJobsCurrentAttempt() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> new Job(3, SPEC, new Running(ON_A, PLACED), 0, PLACED, 2, null, null, null, null));
        assertEquals("job 3 is at attempt 2 but its placement is attempt 1", error.getMessage());
    }
}
