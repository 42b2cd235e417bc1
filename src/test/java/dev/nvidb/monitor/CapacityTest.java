package dev.nvidb.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CapacityTest {

    static GpuSnapshot gpu(int index, Integer util, Long used, Long total, Long free) {
        return new GpuSnapshot(index, null, null, "NVIDIA H100", total, used, free, util, null, null, null, null, null,
                List.of());
    }

    static GpuSnapshot failed(int index) {
        return new GpuSnapshot(index, null, null, "NVIDIA H100", null, null, null, 99, null, null, null, null,
                "GPU is lost", List.of());
    }

    @ParameterizedTest(name = "util {0}%, {1} of 1000 MiB used: available {2}, busy {3}")
    @CsvSource({
        "0,    0,   true,  false",
        "4,    99,  true,  false",
        "5,    0,   false, false",
        "0,    100, false, false",
        "49,   0,   false, false",
        "50,   999, false, true",
        "100,  0,   false, true",
        ",     0,   false, false",
    })
    void availableIsIdleAndNearlyEmptyBusyIsHalfUtilised(Integer util, long used, boolean available, boolean busy) {
        GpuSnapshot gpu = gpu(0, util, used, 1000L, 1000 - used);

        assertEquals(available, Capacity.available(gpu));
        assertEquals(busy, Capacity.busy(gpu));
    }

    @Test
    void aFailedGpuIsNeitherAvailableNorBusyButUnknown() {
        Capacity capacity = Capacity.ofGpus(List.of(failed(0)));

        assertEquals(1, capacity.gpus());
        assertEquals(0, capacity.available());
        assertEquals(0, capacity.busy());
        assertEquals(1, capacity.unknown());
        assertNull(capacity.averageUtilPercent(), "a failed GPU's figures are not averaged");
        assertEquals(0, capacity.memTotalMb());
    }

    @Test
    void sumsTheGpusOfTheNodesThatAnswered() {
        NodeSnapshot a = node(gpu(0, 0, 100L, 81559L, 81000L), gpu(1, 97, 70000L, 81559L, 11000L), failed(2));
        NodeSnapshot b = node(gpu(0, null, 20000L, 49140L, null), gpu(1, 60, 40000L, 49140L, 9000L));
        List<ProbeResult> results = List.of(
                ProbeResult.answered("a", "127.0.0.2:22", a, Duration.ZERO),
                ProbeResult.answered("b", "127.0.0.3:22", b, Duration.ZERO),
                ProbeResult.failed("c", "127.0.0.4:22", "c: no answer", Duration.ZERO));

        Capacity capacity = Capacity.of(results);

        assertEquals(new Capacity(5, 1, 2, 1, (0 + 97 + 60) / 3.0, 100 + 70000 + 20000 + 40000,
                81559 * 2 + 49140 * 2, 81000 + 11000 + (49140 - 20000) + 9000), capacity);
    }

    @Test
    void nothingAnsweredIsZeroGpusAndNoAverage() {
        Capacity capacity = Capacity.of(List.of(ProbeResult.failed("c", "x", "c: no answer", Duration.ZERO)));

        assertEquals(new Capacity(0, 0, 0, 0, null, 0, 0, 0), capacity);
    }

    private static NodeSnapshot node(GpuSnapshot... gpus) {
        return new NodeSnapshot(GpuSource.NVML, null, NodeInfo.unknown(), null, null, List.of(gpus));
    }
}
