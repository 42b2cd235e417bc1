package dev.nvidb.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The OOM patterns and the classification of a failed exit, with no node. */
class FailureClassTest {

    @Test
    void everyOomPatternIsFoundInAFrameworksMessage() {
        assertEquals(Optional.of("CUDA out of memory"), FailureClass.oomPattern(
                "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"));
        assertEquals(Optional.of("torch.OutOfMemoryError"), FailureClass.oomPattern(
                "torch.OutOfMemoryError: CUDA error: out of memory"));
        assertEquals(Optional.of("cudaErrorMemoryAllocation"), FailureClass.oomPattern(
                "CUDA error cudaErrorMemoryAllocation at kernel.cu:42"));
        assertEquals(Optional.of("CUDA_ERROR_OUT_OF_MEMORY"), FailureClass.oomPattern(
                "RuntimeError: CUDA driver error: CUDA_ERROR_OUT_OF_MEMORY"));
        assertEquals(Optional.of("RESOURCE_EXHAUSTED"), FailureClass.oomPattern(
                "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate"));
    }

    @Test
    void otherTextIsNoOom() {
        assertEquals(Optional.empty(), FailureClass.oomPattern(null));
        assertEquals(Optional.empty(), FailureClass.oomPattern(""));
        assertEquals(Optional.empty(), FailureClass.oomPattern("MemoryError\nKilled"));
        assertEquals(Optional.empty(), FailureClass.oomPattern("cuda out of memory"), "frameworks print it capitalised");
    }

    @Test
    void aFailedExitIsOomThenSignalThenExitCode() {
        assertEquals(FailureClass.OOM, FailureClass.ofExit(1, "Traceback\nCUDA out of memory. Tried to allocate"));
        assertEquals(FailureClass.OOM, FailureClass.ofExit(137, "RESOURCE_EXHAUSTED"), "the log says why it was killed");
        assertEquals(FailureClass.SIGNAL, FailureClass.ofExit(137, "step 12"));
        assertEquals(FailureClass.SIGNAL, FailureClass.ofExit(143, null));
        assertEquals(FailureClass.SIGNAL, FailureClass.ofExit(129, null));
        assertEquals(FailureClass.SIGNAL, FailureClass.ofExit(159, null));
        assertEquals(FailureClass.EXIT_CODE, FailureClass.ofExit(1, "error"));
        assertEquals(FailureClass.EXIT_CODE, FailureClass.ofExit(128, null));
        assertEquals(FailureClass.EXIT_CODE, FailureClass.ofExit(160, null));
        assertEquals(FailureClass.EXIT_CODE, FailureClass.ofExit(255, null));
        assertEquals(FailureClass.EXIT_CODE, FailureClass.ofExit(null, null), "an unknown status is no signal");
        assertThrows(IllegalArgumentException.class, () -> FailureClass.ofExit(0, "CUDA out of memory"));
    }

    @Test
    void signalsAreNamed() {
        assertEquals("killed by signal 9 (KILL)", FailureClass.describe(FailureClass.SIGNAL, 137));
        assertEquals("killed by signal 15 (TERM)", FailureClass.describe(FailureClass.SIGNAL, 143));
        assertEquals("killed by signal 20", FailureClass.describe(FailureClass.SIGNAL, 148));
    }

    @Test
    void keysRoundTripAndUnknownOnesAreEmpty() {
        for (FailureClass value : FailureClass.values()) {
            assertEquals(Optional.of(value), FailureClass.fromKey(value.key()));
        }
        assertEquals("exit_code", FailureClass.EXIT_CODE.key());
        assertEquals(Optional.empty(), FailureClass.fromKey("gremlins"));
    }

    @Test
    void anEndedStatusCarriesOnlyTheClassesOfItsOutcome() {
        Instant now = Instant.ofEpochSecond(1);
        assertEquals(FailureClass.LOST, JobStatus.Ended.beforePlacement(JobStatus.Outcome.LOST, now).failureClass());
        assertEquals(FailureClass.TIMEOUT,
                JobStatus.Ended.beforePlacement(JobStatus.Outcome.TIMEOUT, now).failureClass());
        assertEquals(null, JobStatus.Ended.beforePlacement(JobStatus.Outcome.FAILED, now).failureClass());
        assertEquals(FailureClass.OOM, new JobStatus.Ended(JobStatus.Outcome.FAILED, now, 1, null, null,
                FailureClass.OOM).failureClass());
        assertThrows(IllegalArgumentException.class, () -> new JobStatus.Ended(JobStatus.Outcome.COMPLETED, now, 0,
                null, null, FailureClass.EXIT_CODE));
        assertThrows(IllegalArgumentException.class, () -> new JobStatus.Ended(JobStatus.Outcome.FAILED, now, 1,
                null, null, FailureClass.LOST));
        assertThrows(IllegalArgumentException.class, () -> new JobStatus.Ended(JobStatus.Outcome.CANCELLED, now,
                null, null, null, FailureClass.SIGNAL));
        assertTrue(new JobStatus.Ended(JobStatus.Outcome.FAILED, now, null, null, null, FailureClass.LAUNCH)
                .failureClass() == FailureClass.LAUNCH);
    }

    @Test
    void anOomRetryReservesAQuarterMoreThanThePeakOrTheReservation() {
        assertEquals(25_600, RunPolicy.raisedVram(10_240, 20_480L), "1.25 x the peak above the reservation");
        assertEquals(12_800, RunPolicy.raisedVram(10_240, null), "blind GPU: 1.25 x the reservation");
        assertEquals(12_800, RunPolicy.raisedVram(10_240, 4_000L), "a peak that would not raise it: the reservation");
        assertEquals(12_499, RunPolicy.raisedVram(10_240, 9_999L), "ceil(1.25 x 9999) = ceil(12498.75)");
        assertEquals(2, RunPolicy.raisedVram(1, null), "rounded up");
        assertThrows(IllegalArgumentException.class, () -> new RunPolicy(false, 11));
        assertThrows(IllegalArgumentException.class, () -> new RunPolicy(false, -1));
    }
}
