package dev.nvidb.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import dev.nvidb.model.JobStatus;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
import dev.nvidb.queue.AlertView;
import dev.nvidb.queue.EventView;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.NodeView;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Text that users, jobs and nodes control reaches the terminal with its control characters
 * escaped by every text renderer: a newline in a name adds no row, an escape sequence never
 * reaches the terminal, printable Unicode is kept, and JSON stays exact.
 */
class EscapedTextTest {

    private static final Instant NOW = Instant.parse("2025-11-30T12:00:00Z");
    /** A newline that would fake a row, ESC sequences that would clear the screen and recolour, a C1 CSI, a bidi override. */
    private static final String HOSTILE = "a\n    9 fake  completed\u001b[2J\u001b[31m\u009b1m\u202eZ";

    private static boolean safe(String text) {
        return text.chars().noneMatch(c -> c == 0x1b || c == 0x9b || c == 0x202e || c == '\r' || (c < 0x20 && c != '\n'));
    }

    private static Job job(JobStatus status) {
        JobSpec spec = new JobSpec("n" + HOSTILE, "python x.py" + HOSTILE, 1, 0, null, null, Map.of("K", "v"), List.of(),
                null, 0, List.of("t" + HOSTILE), "alice@laptop");
        return new Job(5, spec, status, 0, NOW.minusSeconds(60), 1, "err" + HOSTILE, "note" + HOSTILE,
                "progress" + HOSTILE, null);
    }

    private static Job running() {
        return job(new JobStatus.Running(new Assignment("gpu" + HOSTILE, List.of(0), List.of("GPU-0"), 1, "tok"),
                NOW.minusSeconds(30)));
    }

    @Test
    void printableTextIsKeptAndControlsAreEscaped() {
        assertEquals("ünï 🚀 日本 $(x) \\ 'q'", Printable.of("ünï 🚀 日本 $(x) \\ 'q'"));
        assertEquals("a\\nb\\tc\\rd\\x1b[31me\\x00f\\x7fg\\u009bh\\u202ei", Printable.of("a\nb\tc\rd\u001b[31me\0f\u007fg\u009bh\u202ei"));
        assertEquals("a\nb\\x1b", Printable.lines("a\nb\u001b"));
        assertEquals("x\\ud800y", Printable.of("x\ud800y"));
        assertEquals(null, Printable.of(null));
    }

    @Test
    void jobTableHasOneLinePerJob() {
        Job pending = job(new JobStatus.Pending("held" + HOSTILE));
        String table = JobText.table(List.of(new JobText.Row(running(), JobText.info(running(), null, null, NOW), false),
                new JobText.Row(pending, JobText.info(pending, "why" + HOSTILE, null, NOW), false)), 200);
        assertEquals(3, table.lines().count(), table);
        assertTrue(safe(table), table);
        assertTrue(table.contains("n" + "a\\n"), table);
        String coloured = JobText.table(List.of(new JobText.Row(running(), "i" + HOSTILE, false)), 200, TextStyle.COLOUR);
        assertEquals(2, coloured.lines().count(), coloured);
        assertFalse(coloured.contains("\u001b[2J") || coloured.contains("\u001b[31m"), coloured);
    }

    @Test
    void jobDetailKeepsEveryValueUnderItsLabel() {
        String detail = JobDetailText.render(running(), null, null, "~/jobs/5/1" + HOSTILE, NOW);
        assertTrue(safe(detail), detail);
        for (String line : detail.lines().toList()) {
            assertTrue(line.matches("[a-z ]{10} .*|           .*"), "a labelled line or a continuation: " + line);
        }
        assertFalse(detail.lines().anyMatch(line -> line.startsWith("    9 fake")), detail);
    }

    @Test
    void waitLinesAreOneLineEach() {
        List<String> lines = WaitText.lines(List.of(new JobView(running(), null, null, null),
                new JobView(job(new JobStatus.Pending(null)), "why" + HOSTILE, null, null)), 300, NOW);
        assertEquals(2, lines.size());
        lines.forEach(line -> {
            assertFalse(line.contains("\n"), line);
            assertTrue(safe(line), line);
        });
    }

    @Test
    void eventsAlertsAndNodesAreEscaped() {
        String event = EventText.line(new EventView(3, NOW, 5L, "gpu" + HOSTILE, "failed" + HOSTILE,
                Json.write(Map.of("reason", "x" + HOSTILE))));
        assertFalse(event.contains("\n"), event);
        assertTrue(safe(event), event);

        String alerts = QueueText.alerts(List.of(new AlertView(1, NOW, "k", "job_failed", "warn", 5L, "gpu",
                "job failed" + HOSTILE, "tail" + HOSTILE, null)), 300, TextStyle.COLOUR);
        assertEquals(1, alerts.lines().count(), alerts);
        assertFalse(alerts.contains("\u001b[2J"), alerts);

        GpuProcess process = new GpuProcess(42, "C", 100L, "bob" + HOSTILE, "py" + HOSTILE, "python" + HOSTILE);
        GpuSnapshot gpu = new GpuSnapshot(0, "GPU-0", "0", "A100" + HOSTILE, 1000L, 100L, 900L, 5, 1, 40, 50.0, 300.0,
                null, List.of(process));
        GpuSnapshot broken = new GpuSnapshot(1, "GPU-1", "1", "A100", null, null, null, null, null, null, null, null,
                "lost" + HOSTILE, List.of());
        NodeSnapshot snapshot = new NodeSnapshot(GpuSource.NVML, "note" + HOSTILE, new NodeInfo("host" + HOSTILE, "b",
                null, List.of(), null, null, null, null, null, null), "550" + HOSTILE, null, List.of(gpu, broken));
        NodeView node = new NodeView("gpu" + HOSTILE, "down", false, false, NOW, "unreachable" + HOSTILE, 1, null,
                snapshot, List.of(), 0);
        String nodes = QueueText.nodes(List.of(node), true, NOW, 300, TextStyle.PLAIN);
        assertTrue(safe(nodes), nodes);
        assertEquals(2, nodes.lines().count(), nodes);

        String monitor = MonitorText.render(List.of(
                ProbeResult.answered("gpu" + HOSTILE, "10.0.0.1" + HOSTILE, snapshot, Duration.ZERO),
                ProbeResult.failed("b" + HOSTILE, "10.0.0.2", "b" + HOSTILE + ": no answer" + HOSTILE, Duration.ZERO)),
                300, TextStyle.PLAIN);
        assertTrue(safe(monitor), monitor);
        assertEquals(8, monitor.lines().count(), "7 lines and the capacity line: " + monitor);
    }

    @Test
    void jsonStaysExact() throws Exception {
        String json = Json.write(JsonJob.of(running(), null, null, null, null));
        assertTrue(json.contains("\"n" + HOSTILE.replace("\n", "\\n").replace("\u001b", "\\u001B") + "\""), json);
        assertEquals("n" + HOSTILE, new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).get("name").asText());
    }
}
