package dev.nvidb.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code queue tick --watch} as a use case: a pass, a pause, a pass, until the front end stops it. */
class TickingTest {

    @TempDir
    Path home;

    @Test
    void watchTicksEveryIntervalUntilTheFrontEndStops() throws Exception {
        try (QueueFixture fixture = new QueueFixture(home)) {
            assertTrue(fixture.queue.nodeAdmin().ignore("here", true), "the only node is ignored: no node is contacted");
            List<TickResult> results = new ArrayList<>();
            fixture.queue.ticking().watch(Duration.ofSeconds(7), result -> {
                results.add(result);
                return results.size() < 3;
            });
            assertEquals(3, results.size());
            assertTrue(results.stream().allMatch(TickResult::ran), "a forced tick runs every time: " + results);
            assertEquals(List.of("here"), results.get(0).skipped());
            assertEquals(List.of(Duration.ofSeconds(7), Duration.ofSeconds(7)), fixture.pause.pauses);
        }
    }
}
