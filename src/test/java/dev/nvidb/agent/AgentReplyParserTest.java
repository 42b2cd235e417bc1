package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.NodeException;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.PcieSnapshot;
import dev.nvidb.model.ProcessStats;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AgentReplyParserTest {

    private static NodeSnapshot parse(String stdout, String stderr) {
        return AgentReplyParser.parse("gpu-a", stdout.getBytes(StandardCharsets.UTF_8),
                stderr.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void keepsNullDistinctFromZero() {
        NodeSnapshot snapshot = parse("""
                {"schema_version": 1, "source": "nvml", "error": null,
                 "node": {"hostname": "gpu-a", "boot_id": "b1", "time": 1.5, "load": [0.5, 0.25, 0.0],
                          "cpu_count": 8, "disk_path": "/x", "disk_free_mb": 0, "python": "3.11.2"},
                 "driver_version": "550.54.14", "cuda_version": "12.4",
                 "gpus": [{"index": 0, "uuid": "GPU-1", "pci_bus_id": "00000000:01:00.0", "name": "H100",
                           "mem_total_mb": 81559, "mem_used_mb": 0, "mem_free_mb": 81559, "util_percent": null,
                           "mem_util_percent": 0, "temperature_c": 30, "power_w": 70.5, "power_limit_w": null,
                           "error": null,
                           "processes": [{"pid": 7, "type": "compute", "mem_mb": null, "user": "alice",
                                          "name": "python3", "command": "python3 x.py"}]}]}
                """, "");
        assertEquals(GpuSource.NVML, snapshot.source());
        assertEquals(0L, snapshot.info().diskFreeMb());
        GpuSnapshot gpu = snapshot.gpus().get(0);
        assertEquals(0L, gpu.memUsedMb());
        assertNull(gpu.utilPercent());
        assertEquals(0, gpu.memUtilPercent());
        assertNull(gpu.powerLimitW());
        assertNull(gpu.processes().get(0).memMb());
        assertTrue(gpu.blind());
    }

    @Test
    void readsPcieAndProcessHostFiguresWithNullsKept() {
        NodeSnapshot snapshot = parse("""
                {"schema_version": 1, "source": "nvml", "error": null, "node": null,
                 "gpus": [{"index": 0, "mem_total_mb": 81559, "mem_used_mb": 10, "error": null,
                           "pcie": {"link_gen": 4, "link_width": 16, "max_link_gen": 5, "max_link_width": null,
                                    "rx_kb_s": 0, "tx_kb_s": 3200},
                           "processes": [{"pid": 7, "type": "compute", "mem_mb": 5, "command": "python3 x.py",
                                          "command_truncated": true, "cpu_percent": 187.5,
                                          "host_mem_percent": 0.0, "rss_bytes": 4096, "elapsed_s": 3600,
                                          "state": "R", "threads": 12},
                                         {"pid": 8, "type": "compute", "mem_mb": 5, "command": null,
                                          "command_truncated": null, "cpu_percent": null, "host_mem_percent": null,
                                          "rss_bytes": null, "elapsed_s": null, "state": null, "threads": null}]}]}
                """, "");
        GpuSnapshot gpu = snapshot.gpus().get(0);
        assertEquals(new PcieSnapshot(4, 16, 5, null, 0L, 3200L), gpu.pcie());
        GpuProcess busy = gpu.processes().get(0);
        assertEquals(Boolean.TRUE, busy.commandTruncated());
        assertEquals(new ProcessStats(187.5, 0.0, 4096L, 3600L, "R", 12), busy.stats());
        GpuProcess gone = gpu.processes().get(1);
        assertNull(gone.commandTruncated());
        assertEquals(ProcessStats.UNKNOWN, gone.stats());
    }

    @Test
    void aReplyOfAnOlderAgentHasUnknownPcieAndHostFigures() {
        NodeSnapshot snapshot = parse("""
                {"schema_version": 1, "source": "nvml", "error": null, "node": null,
                 "gpus": [{"index": 0, "mem_total_mb": 81559, "mem_used_mb": 10, "error": null,
                           "processes": [{"pid": 7, "type": "compute", "mem_mb": 5, "user": "alice",
                                          "name": "python3", "command": "python3 x.py"}]}]}
                """, "");
        GpuSnapshot gpu = snapshot.gpus().get(0);
        assertEquals(PcieSnapshot.UNKNOWN, gpu.pcie());
        assertEquals(ProcessStats.UNKNOWN, gpu.processes().get(0).stats());
        assertNull(gpu.processes().get(0).commandTruncated());
        assertEquals("python3 x.py", gpu.processes().get(0).command());
    }

    @Test
    void garbageNamesTheNodeAndTheAgentsLastWords() {
        NodeException failure = assertThrows(NodeException.class,
                () -> parse("", "Traceback (most recent call last):\n  ...\nSyntaxError: invalid syntax\n"));
        assertEquals("gpu-a: the node agent gave no readable answer: SyntaxError: invalid syntax", failure.getMessage());
    }

    @Test
    void refusesANewerSchema() {
        NodeException failure = assertThrows(NodeException.class, () -> parse("{\"schema_version\": 9}", ""));
        assertTrue(failure.getMessage().contains("schema version 9"), failure.getMessage());
    }
}
