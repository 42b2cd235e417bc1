package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeSnapshot;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SmiCsvParserTest {

    private static NodeSnapshot parse(String text) {
        return AgentReplyParser.parse("gpu-a", text.getBytes(StandardCharsets.UTF_8), new byte[0]);
    }

    @Test
    void readsGpusAndProcessesWithNotAvailableValues() {
        NodeSnapshot snapshot = parse("""
                #nvidb-smi-fallback
                #hostname gpu-a.lab
                0, GPU-aaa, 00000000:01:00.0, NVIDIA GeForce RTX 3090, 24576, 1024, 23552, 7, 3, 41, 120.50, 350.00, 535.104.05
                1, GPU-bbb, 00000000:02:00.0, NVIDIA GeForce RTX 3090, 24576, [N/A], [N/A], [Not Supported], [N/A], 38, [N/A], [N/A], 535.104.05
                #status 0
                #processes
                GPU-aaa, 4242, /usr/bin/python3, 512
                GPU-aaa, 4243, weird,name, [N/A]
                #end
                """);
        assertEquals(GpuSource.NVIDIA_SMI, snapshot.source());
        assertEquals("gpu-a.lab", snapshot.info().hostname());
        assertEquals("535.104.05", snapshot.driverVersion());
        assertEquals(2, snapshot.gpus().size());
        GpuSnapshot first = snapshot.gpus().get(0);
        assertEquals(24576L, first.memTotalMb());
        assertEquals(1024L, first.memUsedMb());
        assertEquals(7, first.utilPercent());
        assertEquals(120.5, first.powerW());
        assertEquals(2, first.processes().size());
        assertEquals(512L, first.processes().get(0).memMb());
        assertEquals("weird,name", first.processes().get(1).name());
        assertNull(first.processes().get(1).memMb());
        GpuSnapshot second = snapshot.gpus().get(1);
        assertNull(second.memUsedMb());
        assertNull(second.utilPercent());
        assertEquals(38, second.temperatureC());
        assertTrue(second.processes().isEmpty());
    }

    @Test
    void usedMemoryIsAllThatIsNotFreeAndErrorTextsAreNull() {
        // A driver may leave the memory it reserves (585 MiB here) out of memory.used.
        NodeSnapshot snapshot = parse("""
                #nvidb-smi-fallback
                #hostname gpu-d
                0, GPU-ccc, 00000000:01:00.0, NVIDIA H100 80GB HBM3, 81559, 4, 80970, 0, 0, 33, [Insufficient Permissions], [Unknown Error], 550.54.14
                #status 0
                #processes
                #end
                """);
        GpuSnapshot gpu = snapshot.gpus().get(0);
        assertEquals(589L, gpu.memUsedMb());
        assertEquals(80970L, gpu.memFreeMb());
        assertNull(gpu.powerW());
        assertNull(gpu.powerLimitW());
        assertTrue(gpu.healthy());
    }

    @Test
    void valuesWithUnitsAreNullSoTheGpuIsNoTarget() {
        // The probe always asks for nounits; a value with its unit is not a number nvidb guesses at.
        NodeSnapshot snapshot = parse("""
                #nvidb-smi-fallback
                #hostname gpu-e
                0, GPU-eee, 00000000:01:00.0, NVIDIA H100 80GB HBM3, 81559 MiB, 4 MiB, 80970 MiB, 0 %, 0 %, 33, 70.10 W, 700.00 W, 550.54.14
                #status 0
                #processes
                #end
                """);
        GpuSnapshot gpu = snapshot.gpus().get(0);
        assertNull(gpu.memTotalMb());
        assertNull(gpu.memUsedMb());
        assertNull(gpu.powerW());
        assertFalse(gpu.healthy());
    }

    @Test
    void reportsMissingNvidiaSmi() {
        NodeSnapshot snapshot = parse("#nvidb-smi-fallback\n#hostname gpu-b\n#no-nvidia-smi\n");
        assertEquals(GpuSource.NONE, snapshot.source());
        assertTrue(snapshot.error().contains("python3 is not installed and nvidia-smi is not on PATH"), snapshot.error());
        assertTrue(snapshot.gpus().isEmpty());
    }

    @Test
    void reportsNvidiaSmiFailureWithItsMessage() {
        NodeSnapshot snapshot = parse("""
                #nvidb-smi-fallback
                #hostname gpu-c
                NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.
                #status 9
                #processes
                #end
                """);
        assertEquals(GpuSource.NONE, snapshot.source());
        assertEquals("nvidia-smi failed: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.",
                snapshot.error());
    }
}
