package dev.nvidb.scheduler;

import static dev.nvidb.scheduler.Fixtures.gpu;
import static dev.nvidb.scheduler.Fixtures.job;
import static dev.nvidb.scheduler.Fixtures.node;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Inputs that cannot describe a real tick are refused where they are built, not planned with. */
class InputValidationTest {

    @Test
    void knownGpuNeedsUuidTotalAndUsed() {
        assertThrows(IllegalArgumentException.class,
                () -> new GpuCapacity(0, null, GpuState.MEASURED, 1000L, 0L, 0, Map.of()));
        assertThrows(IllegalArgumentException.class,
                () -> new GpuCapacity(0, "GPU-0", GpuState.BLIND, 1000L, null, 0, Map.of()));
    }

    @Test
    void blindGpuHasNoPerJobMeasurements() {
        assertThrows(IllegalArgumentException.class,
                () -> new GpuCapacity(0, "GPU-0", GpuState.BLIND, 1000L, 10L, 0, Map.of(1L, 10L)));
    }

    @Test
    void negativeMemoryIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> GpuCapacity.measured(0, "GPU-0", 1000, 0, -1, Map.of()));
    }

    @Test
    void nodeListsEachGpuOnce() {
        assertThrows(IllegalArgumentException.class, () -> node("gpu-a", gpu(0, 1000), gpu(0, 1000)));
    }

    @Test
    void neverAnsweredNodeHasNoGpus() {
        assertThrows(IllegalArgumentException.class,
                () -> new NodeCapacity("gpu-a", NodeStatus.NEVER_ANSWERED, false, null, List.of(gpu(0, 1000))));
    }

    @Test
    void nodeNamesAreUnique() {
        assertThrows(IllegalArgumentException.class, () -> Scheduler.plan(QueueSnapshot.of(List.of(), List.of()),
                List.of(node("gpu-a"), node("gpu-a")), SchedulingPolicy.defaults(), Fixtures.NOW));
    }

    @Test
    void snapshotListsJobsByTheirState() {
        assertThrows(IllegalArgumentException.class,
                () -> QueueSnapshot.of(List.of(job(1).running("gpu-a", 0)), List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> QueueSnapshot.of(List.of(), List.of(job(1).pending())));
    }

    @Test
    void policyLimitsCannotBeNegative() {
        assertThrows(IllegalArgumentException.class, () -> SchedulingPolicy.defaults().withHeadroomMb(-1));
        assertThrows(IllegalArgumentException.class, () -> SchedulingPolicy.defaults().withMaxJobsPerGpu(-1));
    }
}
