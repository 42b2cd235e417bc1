package dev.nvidb.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The in-place display of {@code job wait} on a terminal, at a fixed width: pure. */
class WaitTextTest {

    private static final String ESC = "\u001b";

    @Test
    void oneLinePerJobWithWhereOrWhyCutToTheWidth() {
        assertEquals(List.of(
                "job 7 completed: exit 0 · epoch 10/10 loss 0.118",
                "job 8 failed: exit 1 · read 3 of 12 shards",
                "job 9 running?: unverified: node not answering since 5m",
                "job 10 running: on gpu-a for 20m · epoch 2/8 loss 0.733",
                "job 12 pending: waiting for 61440 MiB on 1 GPU (best: gpu-a GPU0 has 56808 MiB free)",
                "job 13 held: " + QueueSamples.HOLD),
                WaitText.lines(QueueSamples.jobs(), 1000, QueueSamples.NOW));
        List<String> narrow = WaitText.lines(QueueSamples.jobs(), 40, QueueSamples.NOW);
        assertEquals("job 12 pending: waiting for 61440 MiB …", narrow.get(4));
        assertTrue(narrow.stream().allMatch(line -> line.length() <= 39), "no line reaches the last column: " + narrow);
    }

    @Test
    void aFrameRewritesThePreviousLinesInPlace() {
        assertEquals(ESC + "[2Kjob 1 pending\n" + ESC + "[2Kjob 2 pending\n" + ESC + "[J",
                WaitText.frame(0, List.of("job 1 pending", "job 2 pending")), "the first frame just prints");
        assertEquals(ESC + "[2F" + ESC + "[2Kjob 1 running\n" + ESC + "[2Kjob 2 pending\n" + ESC + "[J",
                WaitText.frame(2, List.of("job 1 running", "job 2 pending")), "later frames go back up first");
        assertEquals(ESC + "[2F" + ESC + "[J", WaitText.erase(2));
        assertEquals("", WaitText.erase(0));
    }
}
