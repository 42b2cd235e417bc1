package dev.nvidb.queue;

import java.time.Duration;
import java.util.List;

/**
 * What one scheduler pass did, for {@code queue tick} and the front ends that show it.
 *
 * @param ran      false when this client did not tick (fresh enough, or another client ticked)
 * @param answered nodes that answered
 * @param failed   nodes that did not answer, with why
 * @param skipped  nodes not contacted (ignored, or backing off after failures)
 * @param settled  jobs whose end was recorded
 * @param placed   jobs placed and launched
 * @param duration how long the tick took
 */
public record TickResult(boolean ran, List<String> answered, List<String> failed, List<String> skipped,
                         List<Long> settled, List<Long> placed, Duration duration) {

    public TickResult {
        answered = List.copyOf(answered);
        failed = List.copyOf(failed);
        skipped = List.copyOf(skipped);
        settled = List.copyOf(settled);
        placed = List.copyOf(placed);
    }
}
