package dev.nvidb.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.model.TickReport;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The daemon's wire format (moved from engine's DaemonLinkTest with DaemonWire). */
class DaemonWireTest {

    @Test
    void reportsCrossTheSocketIntact() {
        TickReport report = new TickReport(true, List.of("gpu 1", "nœud"), List.of("gpu2: no answer within 8 s\nmore"),
                List.of(), List.of(4L), List.of(5L, 6L), Duration.ofMillis(123));
        String wire = DaemonWire.encode(report);
        List<String> lines = wire.lines().toList();
        assertEquals(".", lines.get(lines.size() - 1));
        assertEquals(report, DaemonWire.decode(lines.subList(0, lines.size() - 1)));
    }
}
