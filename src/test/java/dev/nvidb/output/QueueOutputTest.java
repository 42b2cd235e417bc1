package dev.nvidb.output;

import static dev.nvidb.output.QueueSamples.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.nvidb.queue.QueueStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The queue documents (docs/json.md, "Queue"): {@code queue status}, {@code queue nodes},
 * {@code queue events}, {@code queue tick} and the node admin commands, from constructed
 * records, compared with their golden files.
 */
class QueueOutputTest {

    /** {@code queue daemon --json}: one pass with its tick and its alert delivery. */
    @Test
    void daemonPassMatchesGoldenFile() throws Exception {
        JsonCommands.DaemonPassed pass = JsonCommands.DaemonPassed.of(false, QueueSamples.ago(5), null,
                new JsonCommands.Ticked(Json.SCHEMA_VERSION, true, true, List.of("gpu-a"), List.of(), List.of(),
                        List.of(12L), List.of(14L), 85)).with(QueueSamples.deliveryPass());
        Golden.assertMatches("queue-daemon.json", Json.write(pass));
    }

    /** Text: a failing delivery channel is one warning line in {@code queue status}; a pass's delivery one daemon line. */
    @Test
    void deliveryLines() {
        assertEquals("! notify: command failing, 2 alerts owed (1 failed): /usr/local/bin/page-me exited 1: no route to"
                + " host; next try in 10s\n", QueueText.delivery(QueueSamples.delivery(), QueueSamples.ago(0), 200,
                TextStyle.PLAIN));
        assertEquals("", QueueText.delivery(new dev.nvidb.queue.NotifyStatus(List.of(
                QueueSamples.delivery().channels().get(0))), QueueSamples.ago(0), 200, TextStyle.PLAIN));
        assertEquals("notify: log 2 delivered, 1 not owed; command 1 delivered, 1 not owed, FAILING (alert 3:"
                + " /usr/local/bin/page-me exited 1: no route to host), 1 owed",
                QueueText.daemonDelivery(QueueSamples.deliveryPass(), false));
    }

    private static JsonQueue.Status statusDocument() {
        QueueStatus status = QueueSamples.status();
        return JsonQueue.status(status, status.jobs().stream().map(QueueSamples::json).toList());
    }

    @Test
    void queueStatusMatchesGoldenFile() throws Exception {
        Golden.assertMatches("queue-status.json", Json.write(statusDocument()));
    }

    @Test
    void queueNodesMatchesGoldenFile() throws Exception {
        Golden.assertMatches("queue-nodes.json", Json.write(JsonQueue.nodes(QueueSamples.nodes())));
    }

    @Test
    void budgetsFollowTheSchedulersAccounting() {
        JsonQueue.Node up = statusDocument().nodes().get(0);
        JsonGpu measured = up.gpus().get(0);
        assertEquals("measured", measured.attribution());
        // external = max(unmanaged processes, used − the queue's measured use) = max(6000, 24600 − 18000)
        assertEquals(6600L, measured.externalMemMb());
        assertEquals(18000L, measured.queueMemMb());
        assertEquals(16384L, measured.reservedMb());
        // free = total − external − Σ max(reserved, measured) − headroom
        assertEquals(81920L - 6600 - 18000 - 512, measured.freeMb());
        assertEquals(List.of(true, false), measured.processes().stream().map(JsonGpu.JsonProcess::managed).toList());
        assertEquals(10L, measured.processes().get(0).jobId());
        JsonGpu blind = up.gpus().get(1);
        assertEquals("blind", blind.attribution());
        assertNull(blind.queueMemMb());
        assertNull(blind.processes().get(0).memMb());
        JsonGpu lost = up.gpus().get(2);
        assertEquals("unknown", lost.attribution());
        assertNull(lost.freeMb());
        assertEquals("GPU is lost", lost.error());
    }

    @Test
    void statusCountsEveryStateAndItsOpenAlerts() {
        JsonQueue.Status status = statusDocument();
        assertEquals(List.of("pending", "running", "completed", "failed", "cancelled", "timeout", "lost"),
                List.copyOf(status.counts().keySet()));
        assertEquals(status.alerts().size(), status.openAlerts());
        assertNull(status.keeper());
    }

    @Test
    void eventsMatchGoldenFile() throws Exception {
        Golden.assertMatches("queue-events.json", Json.write(JsonEvents.of(QueueSamples.events(), 40, 51)));
    }

    @Test
    void eventCursorStaysWhenNothingIsNewAndNeverRunsPastTheLog() {
        assertEquals(51, JsonEvents.of(QueueSamples.events(), 40, 51).nextSince());
        assertEquals(51, JsonEvents.of(List.of(), 51, 51).nextSince());
        assertEquals(51, JsonEvents.of(List.of(), 1000, 51).nextSince(), "a cursor past the end comes back");
    }

    @Test
    void tickMatchesGoldenFile() throws Exception {
        Object ticked = CliRecords.create("Ticked", Json.SCHEMA_VERSION, false, true,
                List.of("gpu-a"), List.of("gpu-b (10.0.0.3:22): no answer within 5 s while connecting"),
                List.of("gpu-c"), List.of(7L, 8L), List.of(12L), 412L);
        Golden.assertMatches("queue-tick.json", Json.write(ticked));
    }

    @Test
    void nodeAdminMatchesGoldenFile() throws Exception {
        Object drained = CliRecords.create("NodeChanged", Json.SCHEMA_VERSION, true, "gpu-c",
                "drained", true);
        Golden.assertMatches("queue-drain.json", Json.write(drained));
    }

    @Test
    void statusTextMatchesGoldenFile() throws Exception {
        Golden.assertMatches("queue-status.txt", statusText());
    }

    @Test
    void statusTextFitsEightyColumns() {
        TextWidth.assertFits(80, statusText());
    }

    /**
     * {@code queue status --procs} at 80 columns, composed as QueueStatusCommand composes it:
     * alerts, nodes with their GPU tables and processes, the job table, the counts line.
     */
    static String statusText() {
        QueueStatus status = QueueSamples.status();
        return QueueText.alerts(status.openAlerts(), 80)
                + QueueText.nodes(status.nodes(), true, NOW)
                + JobText.table(JobOutputTest.rows(status.jobs()), 80)
                + QueueText.counts(status.counts()) + "; " + status.pendingReaps() + " kills owed to unreachable nodes\n";
    }
}
