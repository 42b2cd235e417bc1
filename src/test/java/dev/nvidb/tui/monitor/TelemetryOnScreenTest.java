package dev.nvidb.tui.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.config.ViewMode;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.PcieSnapshot;
import dev.nvidb.model.ProcessStats;
import dev.nvidb.tui.Input;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The host and PCIe figures the agent reports, on the monitor screen: the process table's CPU,
 * host memory, RSS, time, state and thread columns, the selected process's line, the GPU row's
 * link and its RX/TX shares, a card's I/O row, and the capacity in the title.
 */
class TelemetryOnScreenTest {

    /** One H100 on a 4.0x16 link (31.5 GB/s per direction) moving 12.6 GB/s in and 25.2 GB/s out. */
    private static List<NodeFeed> node() {
        ProcessStats busy = new ProcessStats(137.5, 2.1, 3_650_000_000L, 3723L, "R", 42);
        ProcessStats idle = new ProcessStats(0.0, 0.1, 52_000_000L, 12L, "S", 1);
        GpuProcess trainer = new GpuProcess(4242, "compute", 30000L, "alice", "python", "python train.py", false, busy);
        GpuProcess sleeper = new GpuProcess(4343, "compute", 512L, "bob", "sleep", "sleep 600", false, idle);
        GpuSnapshot gpu = new GpuSnapshot(0, "GPU-0", "0000:01:00.0", "NVIDIA H100 80GB HBM3", 81559L, 30720L, 50839L, 88,
                5, 71, 250.0, 700.0, null, List.of(trainer, sleeper),
                new PcieSnapshot(4, 16, 5, 16, 12_600_000L, 25_200_000L));
        return List.of(MonitorSamples.node("gpu-a", gpu));
    }

    @Test
    void theProcessTableCarriesTheHostFiguresAndSortsByThem() {
        ScreenDriver driver = new ScreenDriver(node(), ViewSettings.defaults(), 200, 40).keys("j", Input.Kind.ENTER);
        String text = driver.text();
        assertTrue(text.contains("CPU%") && text.contains("MEM%") && text.contains("RSS") && text.contains("THR"), text);
        assertTrue(text.matches("(?s).*4242 +alice .* 138 +2\\.1 +3\\.4G +1:02:03 R +42 .*"), "137.5 % shows as 138:\n" + text);
        assertTrue(text.contains("cpu 138%  rss 3.4G (2.1% of host)  42 threads  state R  up 1:02:03"), text);
        driver.keys("o");
        assertEquals(ProcessColumns.CPU, driver.state().processSort());
        String sorted = driver.text();
        assertTrue(sorted.indexOf("  4242 ") < sorted.indexOf("  4343 "), "the busiest first:\n" + sorted);
        driver.keys("O");
        String reversed = driver.text();
        assertTrue(reversed.indexOf("  4343 ") < reversed.indexOf("  4242 "), reversed);
    }

    @Test
    void theGpuRowNamesItsLinkAndEachDirectionsShareOfIt() {
        String text = new ScreenDriver(node(), ViewSettings.defaults(), 200, 40).text();
        assertTrue(text.contains("PCIE") && text.contains("RX/TX"), text);
        assertTrue(text.matches("(?s).*4\\.0x16 +40%/80%.*"), "12.6 and 25.2 of 31.5 GB/s:\n" + text);
        assertTrue(text.contains("1 GPU, 0 available, 1 busy, util 88%, VRAM 30.0G/79.6G (49.6G free)"), text);
    }

    @Test
    void aCardSpellsTheLinkOutWithTheWidestTheCardSupports() {
        ViewSettings cards = ViewSettings.defaults().withMode(ViewMode.UNIFIED).withDetail(true);
        String text = new ScreenDriver(node(), cards, 160, 40).text();
        assertTrue(text.contains("link 4.0x16 rx 12.60GB/s 40% tx 25.20GB/s 80% of 5.0x16"), text);
    }
}
