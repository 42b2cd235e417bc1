package dev.nvidb.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.PcieSnapshot;
import dev.nvidb.model.ProbeResult;
import dev.nvidb.model.ProcessStats;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class MonitorOutputTest {

    static List<ProbeResult> sample() {
        GpuSnapshot busy = new GpuSnapshot(0, "GPU-11111111", "00000000:01:00.0", "NVIDIA H100 80GB HBM3", 81559L,
                20480L, 61079L, 97, 40, 71, 612.25, 700.0, null, List.of(
                new GpuProcess(4242, "compute", 20000L, "alice", "python3", "python3 train.py --lr 1e-4", false,
                        new ProcessStats(98.5, 1.73, 4_563_402_752L, 8215L, "R", 43)),
                new GpuProcess(4250, "graphics", null, "bob", "Xorg", null)),
                new PcieSnapshot(4, 16, 5, 16, 12_000_000L, 800_000L));
        GpuSnapshot lost = new GpuSnapshot(1, "GPU-22222222", null, "NVIDIA H100 80GB HBM3", null, null, null, null,
                null, null, null, null, "GPU is lost", List.of());
        NodeInfo info = new NodeInfo("gpu-a.lab", "boot-1", 1764480000.5, List.of(0.5, 0.25, 0.125), 32, "/home/u/.nvidb/jobs",
                512000L, "3.11.2", "0", false);
        NodeSnapshot up = new NodeSnapshot(GpuSource.NVML, null, info, "550.54.14", "12.4", List.of(busy, lost));
        NodeSnapshot noDriver = new NodeSnapshot(GpuSource.NONE, "NVIDIA driver not found: python3 is not installed"
                + " and nvidia-smi is not on PATH", new NodeInfo("gpu-b", null, null, null, null, null, null, null, null, null), null,
                null, List.of());
        return List.of(
                ProbeResult.answered("gpu-a", "127.0.0.2:2222", up, Duration.ofMillis(180)),
                ProbeResult.answered("gpu-b", "127.0.0.3:2222", noDriver, Duration.ofMillis(95)),
                ProbeResult.failed("gpu-c", "127.0.0.4:2222", "gpu-c (127.0.0.4:2222): no answer within 2 s while connecting",
                        Duration.ofMillis(2001)));
    }

    /** One node, one GPU whose 4.0x4 link carries 93% of what it can receive. */
    static List<ProbeResult> busyLink() {
        GpuSnapshot gpu = new GpuSnapshot(0, "GPU-33333333", null, "NVIDIA RTX A6000", 49140L, 30000L, 19140L, 99, 50,
                80, 290.0, 300.0, null, List.of(), new PcieSnapshot(4, 4, 4, 16, 7_340_000L, 3_200_000L));
        NodeSnapshot node = new NodeSnapshot(GpuSource.NVML, null, NodeInfo.unknown(), null, null, List.of(gpu));
        return List.of(ProbeResult.answered("gpu-d", "127.0.0.5:22", node, Duration.ofMillis(50)));
    }

    @Test
    void jsonDocumentMatchesGoldenFile() throws Exception {
        Golden.assertMatches("monitor-once.json", Json.write(JsonMonitor.of(sample())));
    }

    @Test
    void textReportMatchesGoldenFile() throws Exception {
        Golden.assertMatches("monitor-once.txt", MonitorText.render(sample(), 80));
    }

    @Test
    void wideTextNamesEachGpusPcieLinkAndItsShareMatchingGoldenFile() throws Exception {
        Golden.assertMatches("monitor-once-wide.txt", MonitorText.render(sample(), 100));
    }

    @Test
    void theLinkColumnAppearsFromEightyFourColumnsAndTheShareFromNinetyFive() {
        assertEquals(false, MonitorText.render(sample(), 83).contains("PCIE"));
        assertEquals(true, MonitorText.render(sample(), 84).contains("4.0x16"));
        assertEquals(false, MonitorText.render(sample(), 94).contains("RX/TX"));
        assertEquals(true, MonitorText.render(sample(), 95).contains("38%/3%"));
        for (int width : new int[] {84, 95, 120}) {
            for (String line : MonitorText.render(sample(), width).split("\n")) {
                if (line.startsWith("  ")) {
                    assertEquals(true, line.length() <= width, width + " columns, too wide: " + line);
                }
            }
        }
    }

    @Test
    void textFitsEightyColumns() {
        for (String line : MonitorText.render(sample(), 80).split("\n")) {
            if (!line.startsWith("gpu-b") && !line.startsWith("gpu-c")) {
                assertEquals(true, line.length() <= 80, "too wide: " + line);
            }
        }
    }
}
