package dev.nvidb.scheduler;

import static dev.nvidb.scheduler.Fixtures.job;
import static dev.nvidb.scheduler.Fixtures.uuid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobStatus;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** The budget formula: free = total − external − Σ max(reservation, measured use) − headroom. */
class GpuBudgetTest {

    private static final long TOTAL = 24576;
    private static final long HEADROOM = 512;

    static Stream<Arguments> measuredCards() {
        return Stream.of(
                // description, used, external, running job reservation (job 1, 0 = none), measured use of job 1, expected external, charged, free
                Arguments.of("idle card: only the headroom is kept", 0L, 0L, 0L, 0L, 0L, 0L, 24064L),
                Arguments.of("foreign processes are charged", 8192L, 8192L, 0L, 0L, 8192L, 0L, 15872L),
                Arguments.of("a job using more than it reserved is charged its use", 12288L, 2048L, 4096L, 10240L, 2048L, 10240L, 11776L),
                Arguments.of("a job using less than it reserved is charged its reservation", 3072L, 2048L, 8192L, 1024L, 2048L, 8192L, 13824L),
                Arguments.of("used memory that no process explains is foreign", 3000L, 0L, 0L, 0L, 3000L, 0L, 21064L),
                Arguments.of("a full card shows negative free (the headroom is gone)", 24576L, 24576L, 0L, 0L, 24576L, 0L, -512L));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("measuredCards")
    void measuredCardBudget(String description, long used, long external, long reservation, long use,
                            long expectedExternal, long expectedCharged, long expectedFree) {
        Map<Long, Long> measured = use > 0 ? Map.of(1L, use) : Map.of();
        GpuCapacity gpu = GpuCapacity.measured(0, uuid(0), TOTAL, used, external, measured);
        List<Job> running = reservation > 0 ? List.of(job(1).vram(reservation).running("gpu-a", 0)) : List.of();

        GpuBudget budget = GpuBudget.of("gpu-a", gpu, running, HEADROOM);

        assertEquals(expectedExternal, budget.externalMb(), "external");
        assertEquals(expectedCharged, budget.chargedMb(), "charged");
        assertEquals(expectedFree, budget.freeMb(), "free");
    }

    static Stream<Arguments> blindCards() {
        return Stream.of(
                // description, used, reservation of the running job, expected external, free
                Arguments.of("job's own use is credited up to its reservation, the rest is foreign", 15000L, 8192L, 6808L, 9064L),
                Arguments.of("a job that has not allocated yet still holds its reservation", 2000L, 8192L, 0L, 15872L),
                Arguments.of("a job without --vram is charged nothing, its use counts as foreign", 6000L, 0L, 6000L, 18064L),
                Arguments.of("no jobs: everything in use is foreign", 5000L, -1L, 5000L, 19064L));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("blindCards")
    void blindCardBudget(String description, long used, long reservation, long expectedExternal, long expectedFree) {
        GpuCapacity gpu = GpuCapacity.blind(0, uuid(0), TOTAL, used);
        List<Job> running = reservation >= 0 ? List.of(job(1).vram(reservation).running("gpu-a", 0)) : List.of();

        GpuBudget budget = GpuBudget.of("gpu-a", gpu, running, HEADROOM);

        assertEquals(expectedExternal, budget.externalMb(), "external");
        assertEquals(expectedFree, budget.freeMb(), "free");
        assertNull(budget.queueUsedMb(), "a blind card has no measured queue use");
    }

    @Test
    void jobMeasuredOnAGpuItWasNotGivenIsChargedItsUse() {
        GpuCapacity gpu = Fixtures.gpuWithJobs(1, TOTAL, 0, Map.of(7L, 5000L));
        List<Job> running = List.of(job(7).vram(4096).running("gpu-a", 0));

        GpuBudget budget = GpuBudget.of("gpu-a", gpu, running, HEADROOM);

        assertEquals(5000, budget.chargedMb());
        assertEquals(0, budget.reservedMb());
        assertEquals(1, budget.jobCount());
    }

    @Test
    void assignmentsMatchGpusByUuidBeforeIndex() {
        Job job = new Job(3, job(3).vram(4096).pending().spec(),
                new JobStatus.Running(new Assignment("gpu-a", List.of(0), List.of(uuid(1)), 1, "t"), Fixtures.NOW), 0,
                Fixtures.NOW, 1, null, null, null, null);

        assertEquals(4096, GpuBudget.of("gpu-a", Fixtures.gpu(1, TOTAL), List.of(job), 0).reservedMb());
        assertEquals(0, GpuBudget.of("gpu-a", Fixtures.gpu(0, TOTAL), List.of(job), 0).reservedMb());
        assertEquals(0, GpuBudget.of("gpu-b", Fixtures.gpu(1, TOTAL), List.of(job), 0).reservedMb());
    }

    @Test
    void unknownGpuHasNoBudget() {
        assertThrows(IllegalArgumentException.class,
                () -> GpuBudget.of("gpu-a", GpuCapacity.unknown(0, null, TOTAL), List.of(), HEADROOM));
    }
}
