package dev.nvidb.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code nvidb --once [--remote]}'s verdict: alone, this machine must answer with GPU data;
 * with the servers, only a node that did not answer fails the run (a row without a driver
 * says {@code no_gpu} and does not).
 */
class MonitorExitTest {

    private static final ProbeResult NO_DRIVER = ProbeResult.answered("laptop", "local",
            new NodeSnapshot(GpuSource.NONE, "no NVIDIA driver", NodeInfo.unknown(), null, null, List.of()), Duration.ZERO);
    private static final ProbeResult DOWN = ProbeResult.failed("gpu-b", "10.0.0.2:22", "connection refused",
            Duration.ZERO);

    @Test
    void aloneAMachineWithoutADriverFails() {
        assertEquals(false, LiveMonitor.answered(List.of(NO_DRIVER), false));
    }

    @Test
    void withServersAMachineWithoutADriverDoesNotFail() {
        assertEquals(true, LiveMonitor.answered(List.of(NO_DRIVER), true));
    }

    @Test
    void withServersANodeThatDidNotAnswerFails() {
        assertEquals(false, LiveMonitor.answered(List.of(NO_DRIVER, DOWN), true));
        assertEquals(false, LiveMonitor.answered(List.of(DOWN), false));
    }
}
