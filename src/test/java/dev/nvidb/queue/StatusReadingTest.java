package dev.nvidb.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code queue status} reads the active jobs and the latest finished ones, and counts the rest
 * (issue 12: a status over a long history must not read the whole history).
 */
class StatusReadingTest {

    @TempDir
    Path home;

    @Test
    void statusShowsActiveJobsAndTheLatestFinishedByFinishTimeAndCountsEveryJob() throws Exception {
        try (QueueFixture fixture = new QueueFixture(home)) {
            assertTrue(fixture.queue.nodeAdmin().ignore("here", true), "nothing runs: the jobs stay pending");
            for (int i = 1; i <= 6; i++) {
                fixture.submit("job-" + i);
            }
            // finished out of id order: 2 first, then 5 and 4 together, then 1
            fixture.queue.control().cancel(List.of(2L));
            fixture.clock.advance(Duration.ofSeconds(1));
            fixture.queue.control().cancel(List.of(5L, 4L));
            fixture.clock.advance(Duration.ofSeconds(1));
            fixture.queue.control().cancel(List.of(1L));

            QueueStatus status = fixture.queue.reading().status(false, 2);
            assertEquals(List.of(1L, 3L, 5L, 6L), status.jobs().stream().map(JobView::id).toList(),
                    "the pending jobs 3 and 6, and the two that finished last (1, then the later job of a tie, 5), in id order");
            assertEquals(2, status.counts().get("pending"));
            assertEquals(4, status.counts().get("cancelled"));
            assertEquals(0, status.counts().get("running"));
            assertEquals(List.of(3L, 6L), fixture.queue.reading().status(false, 0).jobs().stream().map(JobView::id).toList());
        }
    }
}
