package dev.nvidb.model;

import java.time.Duration;
import java.util.List;

/**
 * What one tick did, for {@code queue tick} and tests.
 *
 * @param ran        false when this client did not tick (fresh enough, or another client ticked)
 * @param answered   nodes that answered
 * @param failed     nodes that did not answer, with why
 * @param skipped    nodes not contacted (ignored, or backing off after failures)
 * @param settled    jobs whose end was recorded
 * @param placed     jobs placed and launched
 * @param duration   how long the tick took
 */
public record TickReport(boolean ran, List<String> answered, List<String> failed, List<String> skipped,
                         List<Long> settled, List<Long> placed, Duration duration) {

    public static TickReport notRun() {
        return new TickReport(false, List.of(), List.of(), List.of(), List.of(), List.of(), Duration.ZERO);
    }
}
