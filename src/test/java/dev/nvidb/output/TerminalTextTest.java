package dev.nvidb.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The text renderers take the width and the colour as inputs: a wide terminal shows pending
 * reasons and GPU models whole, colour paints states without changing a character, and plain
 * output has no escape sequence at all.
 */
class TerminalTextTest {

    private static final Pattern SGR = Pattern.compile("\u001b\\[[0-9;]*m");
    private static final String LONG_MODEL = "NVIDIA RTX 6000 Ada Generation Laptop GPU";

    private static String strip(String text) {
        return SGR.matcher(text).replaceAll("");
    }

    private static List<ProbeResult> longModel() {
        GpuSnapshot gpu = new GpuSnapshot(0, "GPU-1", null, LONG_MODEL, 49140L, 100L, 49040L, 3, 1, 40, 20.0, 300.0,
                null, List.of());
        NodeSnapshot snapshot = new NodeSnapshot(GpuSource.NVML, null, NodeInfo.unknown(), "550.54.14", "12.4",
                List.of(gpu));
        return List.of(ProbeResult.answered("gpu-w", "10.0.0.9:22", snapshot, Duration.ZERO));
    }

    @Test
    void wideTerminalShowsPendingReasonsWhole() {
        String narrow = JobText.table(JobOutputTest.rows(QueueSamples.jobs()), 80);
        String wide = JobText.table(JobOutputTest.rows(QueueSamples.jobs()), 200);
        assertFalse(narrow.contains(QueueSamples.PENDING_REASON), narrow);
        assertTrue(wide.contains(QueueSamples.PENDING_REASON), wide);
        TextWidth.assertFits(200, wide);
    }

    @Test
    void wideTerminalShowsGpuModelsWhole() {
        String narrow = MonitorText.render(longModel(), 80);
        String wide = MonitorText.render(longModel(), 140);
        assertFalse(narrow.contains(LONG_MODEL), narrow);
        assertTrue(wide.contains(LONG_MODEL), wide);
        assertEquals(MonitorText.render(MonitorOutputTest.sample(), 95), MonitorText.render(MonitorOutputTest.sample(), 200),
                "short names keep their column: past the PCIe columns a wider terminal changes nothing");
        String model = "GeForce RTX 3090 Ti";  // the queue's tables leave out the vendor
        assertFalse(QueueText.nodes(List.of(QueueSamples.upNode()), false, QueueSamples.NOW).contains(model));
        assertTrue(QueueText.nodes(List.of(QueueSamples.upNode()), false, QueueSamples.NOW, 120, TextStyle.PLAIN)
                .contains(model));
    }

    @Test
    void colourPaintsStatesAndChangesNoCharacter() {
        List<JobText.Row> rows = JobOutputTest.rows(QueueSamples.jobs());
        String plain = JobText.table(rows, 80, TextStyle.PLAIN);
        String coloured = JobText.table(rows, 80, TextStyle.COLOUR);
        assertEquals(plain, strip(coloured));
        assertTrue(coloured.contains("\u001b[32mcompleted"), coloured);
        assertTrue(coloured.contains("\u001b[31mfailed"), coloured);
        assertTrue(coloured.contains("\u001b[33mpending"), coloured);
        assertTrue(coloured.contains("\u001b[33mheld"), coloured);

        String monitor = MonitorText.render(MonitorOutputTest.sample(), 80, TextStyle.COLOUR);
        assertEquals(MonitorText.render(MonitorOutputTest.sample(), 80), strip(monitor));
        String wide = MonitorText.render(MonitorOutputTest.busyLink(), 100, TextStyle.COLOUR);
        assertEquals(MonitorText.render(MonitorOutputTest.busyLink(), 100), strip(wide));
        assertTrue(wide.contains("\u001b[31m  93%/41%"), "a link past 70% is red: " + wide);
        assertTrue(monitor.contains("\u001b[31mDOWN"), monitor);
        assertTrue(monitor.contains("\u001b[33mNO GPU"), monitor);
        assertTrue(monitor.contains("\u001b[32mup"), monitor);

        String nodes = QueueText.nodes(List.of(QueueSamples.upNode(), QueueSamples.downNode()), true, QueueSamples.NOW,
                80, TextStyle.COLOUR);
        assertEquals(QueueText.nodes(List.of(QueueSamples.upNode(), QueueSamples.downNode()), true, QueueSamples.NOW),
                strip(nodes));
        assertTrue(nodes.contains("\u001b[32mup"), nodes);
    }

    @Test
    void plainOutputHasNoEscapes() {
        assertFalse(JobText.table(JobOutputTest.rows(QueueSamples.jobs()), 200, TextStyle.PLAIN).contains("\u001b"));
        assertFalse(MonitorText.render(MonitorOutputTest.sample(), 200, TextStyle.PLAIN).contains("\u001b"));
        assertFalse(QueueText.nodes(List.of(QueueSamples.upNode()), true, QueueSamples.NOW, 200, TextStyle.PLAIN)
                .contains("\u001b"));
    }
}
