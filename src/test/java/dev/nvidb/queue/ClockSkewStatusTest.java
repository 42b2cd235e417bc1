package dev.nvidb.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7 item 4: {@code queue status} says when the database holds times from the future by
 * this machine's clock, and stops saying so once nothing from the future is left.
 */
class ClockSkewStatusTest {

    @TempDir
    Path home;

    @Test
    void statusReportsTimesFromTheFutureAfterTheClockSteppedBack() throws Exception {
        try (QueueFixture fixture = new QueueFixture(home)) {
            assertTrue(fixture.queue.nodeAdmin().ignore("here", true));
            fixture.submit("written-on-time");
            assertTrue(fixture.queue.ticking().now().ran());
            assertNull(fixture.queue.reading().status(false, 10).clockSkew(), "nothing from the future");

            fixture.clock.jump(Duration.ofHours(-1));
            ClockSkew skew = fixture.queue.reading().status(false, 10).clockSkew();
            assertNotNull(skew, "the last tick, the job and its event are an hour ahead now");
            assertEquals(Duration.ofHours(1), skew.ahead());
            assertEquals("the last tick", skew.what(), skew::toString);

            fixture.clock.advance(Duration.ofHours(1).plusSeconds(1));
            assertNull(fixture.queue.reading().status(false, 10).clockSkew(), "real time caught up");
        }
    }

    @Test
    void timesWithinTheToleranceAreNotSkew() {
        java.time.Instant now = java.time.Instant.parse("2026-01-01T00:00:00Z");
        var stamps = java.util.List.of(new dev.nvidb.store.RecordedTimes.Stamp("the last tick", now.plusSeconds(4)),
                new dev.nvidb.store.RecordedTimes.Stamp("the newest event", now.plusSeconds(90)));
        assertNull(StatusReading.clockSkew(stamps.subList(0, 1), now));
        ClockSkew skew = StatusReading.clockSkew(stamps, now);
        assertEquals("the newest event", skew.what());
        assertEquals(Duration.ofSeconds(90), skew.ahead());
    }
}
