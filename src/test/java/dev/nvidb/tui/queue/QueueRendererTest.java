package dev.nvidb.tui.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.keeper.KeeperState;
import dev.nvidb.output.QueueSamples;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.QueueStatus;
import dev.nvidb.scheduler.GpuBudget;
import dev.nvidb.tui.Frame;
import dev.nvidb.tui.Input;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jline.utils.AttributedString;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The queue screen drawn from the constructed queue of the golden-file tests (an up node with a
 * blind and a lost GPU, a down node, a drained node never seen; running, unverified, pending,
 * held, completed and failed jobs; two open alerts) at several sizes.
 */
class QueueRendererTest {

    private static final Instant NOW = QueueSamples.NOW;

    private static Frame render(QueueScreenState state, KeeperState keeper, int width, int height) {
        QueueData data = new QueueData(QueueSamples.status(), keeper, NOW, null, null, null);
        return QueueRenderer.render(new QueueView(state, data, null, null, true, Duration.ofSeconds(2), NOW), width,
                height);
    }

    private static Frame render(QueueScreenState state, int width, int height) {
        return render(state, null, width, height);
    }

    @ParameterizedTest
    @CsvSource({"80,24", "120,40", "200,60", "60,16", "40,10"})
    void everySizeGetsExactlyItsRowsAndNoRowWiderThanTheTerminal(int width, int height) {
        for (QueueScreenState.Pane pane : QueueScreenState.Pane.values()) {
            QueueScreenState state = new QueueScreenState();
            state.selectedJob = 12L;
            state.pane = pane;
            Frame frame = render(state, width, height);
            assertEquals(height, frame.lines().size(), frame.text());
            for (AttributedString line : frame.lines()) {
                assertEquals(width, line.columnLength(), "row '" + line + "' at " + width + "x" + height);
            }
            assertTrue(frame.text().contains("nvidb queue"), frame.text());
            assertTrue(frame.lines().get(height - 1).toString().contains("q quit"), "the action bar is the last row:\n"
                    + frame.text());
        }
    }

    @Test
    void jobsAreInQueueOrderRunningThenPendingAsDispatchedThenTheLatestFinished() {
        QueueScreenState state = new QueueScreenState();
        List<Long> ids = QueueRenderer.visibleJobs(state, QueueSamples.status(), NOW).stream().map(JobView::id).toList();
        // 9 started before 10; 12 (priority 0) goes before 13 (-1); 7 finished after 8
        assertEquals(List.of(9L, 10L, 12L, 13L, 7L, 8L), ids);
        String table = render(state, 120, 40).text();
        assertTrue(table.indexOf("    9 running?") < table.indexOf("   10 running"), table);
        assertTrue(table.indexOf("   10 running") < table.indexOf("   12 pending"), table);
        assertTrue(table.indexOf("   13 held") < table.indexOf("    7 completed"), table);
    }

    @Test
    void aFilterAndASortChangeTheRowsAndTheHeaderSaysSo() {
        QueueScreenState state = new QueueScreenState();
        state.filter = StateFilter.FAILED;
        assertEquals(List.of(8L), QueueRenderer.visibleJobs(state, QueueSamples.status(), NOW).stream()
                .map(JobView::id).toList());
        state.filter = StateFilter.ALL;
        state.sort = JobSort.PRIORITY;
        assertEquals(10L, QueueRenderer.visibleJobs(state, QueueSamples.status(), NOW).get(0).id(), "priority 5 first");
        state.descending = true;
        assertEquals(13L, QueueRenderer.visibleJobs(state, QueueSamples.status(), NOW).get(0).id(), "priority -1 first");
        assertTrue(render(state, 120, 40).text().contains("sorted by PRI ▼"));
    }

    @Test
    void aDownNodeAndADrainedNodeArePlainToSee() {
        QueueScreenState state = new QueueScreenState();
        state.processes = QueueScreenState.Processes.NONE;
        String text = render(state, 160, 50).text();
        assertTrue(text.contains("gpu-b  DOWN"), text);
        assertTrue(text.contains("no answer within 5 s while connecting"), text);
        assertTrue(text.contains("gpu-c  unknown DRAINED"), text);
        assertTrue(text.contains("gpu-a  up"), text);
    }

    @Test
    void openAlertsComeFirstNewestFirstAndAClickOpensTheirJob() {
        Frame frame = render(new QueueScreenState(), 120, 40);
        assertTrue(frame.lines().get(2).toString().contains("node gpu-b is not answering"), frame.text());
        assertTrue(frame.lines().get(3).toString().contains("job 8 (prep) exited with status 1"), frame.text());
        assertEquals(Optional.of(new QueueTarget.Alert(8L)), frame.targetAt(10, 3));
    }

    @Test
    void theMemoryBarSeparatesForeignMemoryTheQueuesAndFreeSpace() {
        // 80 GiB card: 6000 MiB foreign, 18000 MiB charged to the queue's job
        GpuBudget budget = new GpuBudget(81920, 6000, 16384, 18000L, 18000, 1, 57408);
        assertEquals("▓████░░░░░░░░░░░", NodeSection.bar(budget, 16, false).toString());
        assertEquals("░░░░░░░░", NodeSection.bar(new GpuBudget(81920, 0, 0, 0L, 0, 0, 81408), 8, false).toString());
        assertEquals("▓▓▓▓▓▓▓▓", NodeSection.bar(new GpuBudget(1000, 1200, 0, 0L, 0, 0, -700), 8, false).toString(),
                "over budget: never longer than the bar");
        String text = render(new QueueScreenState(), 120, 40).text();
        assertTrue(text.contains("jobs 10"), "the GPU line names the queue's job on it:\n" + text);
        assertTrue(text.contains("foreign pid 5151 bob"), "bob's notebook is listed as foreign:\n" + text);
    }

    @Test
    void anotherQueuesClaimThePolicyAndWhoWaitsAreUnderTheNode() {
        String text = render(new QueueScreenState(), 160, 60).text();
        assertTrue(text.contains("claimed by carol: 8.0G reserved, job 4 of queue laptop"), text);
        assertTrue(!text.contains("claimed by alice"), "this queue's own claim is its job, not a foreign claim:\n" + text);
        assertTrue(text.contains("policy: share fair; everyone: max 2 GPUs"), text);
        assertTrue(text.contains("waiting: carol waits with 2 GPU jobs (smallest 1 x 8.0G) in queue laptop"), text);
        Frame frame = render(new QueueScreenState(), 160, 60);
        int gpu1 = row(frame, "    1 GeForce");
        assertTrue(frame.lines().get(gpu1 + 1).toString().contains("claimed by carol"),
                "the claim is right under its GPU:\n" + frame.text());
    }

    @Test
    void theKeeperAndTheTickingModeAreInTheHeader() {
        assertTrue(render(new QueueScreenState(), 120, 40).lines().get(0).toString().contains("no keeper"));
        KeeperState down = new KeeperState(KeeperState.Kind.SHELL, KeeperState.Condition.DOWN, null, null, null, null,
                null, null, null, null, "30", null, "not running");
        String header = render(new QueueScreenState(), down, 120, 40).lines().get(0).toString();
        assertTrue(header.contains("keeper DOWN"), header);
        assertTrue(header.contains("auto tick 2s"), header);
        assertTrue(header.contains("tick 2s ago"), header);
    }

    @Test
    void theSelectedPendingJobSaysWhyItWaitsAndItsDetailOpens() {
        QueueScreenState state = new QueueScreenState();
        state.selectedJob = 12L;
        Frame frame = render(state, 120, 40);
        assertTrue(frame.lines().get(38).toString().contains("job 12 pending: " + QueueSamples.status().jobs().get(4)
                .pendingReason()), frame.text());
        state.pane = QueueScreenState.Pane.DETAIL;
        String detail = render(state, 120, 40).text();
        assertTrue(detail.contains("command    python train.py --epochs 10"), detail);
        assertTrue(detail.contains("── job 12 "), detail);
    }

    @Test
    void headersCountsAndButtonsAreClickable() {
        QueueScreenState state = new QueueScreenState();
        state.selectedJob = 10L;
        Frame frame = render(state, 120, 40);
        int header = row(frame, "   ID STATE");
        assertEquals(Optional.of(new QueueTarget.Column(JobSort.NAME)), frame.targetAt(frame.lines().get(header).toString()
                .indexOf("NAME") + 1, header));
        assertEquals(Optional.of(new QueueTarget.Count(dev.nvidb.model.JobState.RUNNING)),
                frame.targetAt(frame.lines().get(1).toString().indexOf("running") + 1, 1));
        String bar = frame.lines().get(39).toString();
        assertEquals(Optional.of(new QueueTarget.Button(Input.character('c'))), frame.targetAt(bar.indexOf("c cancel") + 1, 39));
        int job10 = row(frame, "   10 running");
        assertEquals(Optional.of(new QueueTarget.JobRow(10)), frame.targetAt(50, job10));
    }

    @Test
    void helpListsTheKeys() {
        QueueScreenState state = new QueueScreenState();
        state.help = true;
        String text = render(state, 100, 30).text();
        assertTrue(text.contains("cancel the selected job (press twice within 5 s)"), text);
        assertTrue(text.contains("move a pending job up or down the dispatch order"), text);
    }

    @Test
    void beforeTheFirstReadTheScreenSaysSo() {
        QueueView view = new QueueView(new QueueScreenState(), QueueData.empty().withReadError("database is locked"),
                null, null, false, Duration.ofSeconds(2), NOW);
        String text = QueueRenderer.render(view, 80, 24).text();
        assertTrue(text.contains("cannot read the queue: database is locked"), text);
        assertTrue(text.contains("manual ticking (t)"), text);
    }

    private static int row(Frame frame, String start) {
        for (int i = 0; i < frame.lines().size(); i++) {
            if (frame.lines().get(i).toString().startsWith(start)) {
                return i;
            }
        }
        throw new AssertionError("no row starting '" + start + "' in\n" + frame.text());
    }

    static QueueStatus status() {
        return QueueSamples.status();
    }
}
