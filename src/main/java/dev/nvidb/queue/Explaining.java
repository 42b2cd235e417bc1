package dev.nvidb.queue;

import dev.nvidb.engine.PlanningInput;
import dev.nvidb.engine.QueueEngine;
import dev.nvidb.model.JobState;
import dev.nvidb.scheduler.Explainer;
import dev.nvidb.scheduler.Explanation;
import dev.nvidb.store.NodeRecord;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code job why}: explains a pending job from the database as it is (each node's last answer),
 * with the scheduler's own code ({@link Explainer}), so the explanation is what the next tick
 * would decide on the same figures. Contacts no node; refreshing first is {@link Ticking}'s job.
 */
public final class Explaining {

    private final QueueEngine engine;
    private final StatusReading reading;

    Explaining(QueueEngine engine, StatusReading reading) {
        this.engine = engine;
        this.reading = reading;
    }

    /** The job and, when it is pending, why; a usage error when there is no such job. */
    public WhyView why(long id) {
        JobView view = reading.getJob(id);
        if (view.job().state() != JobState.PENDING || view.damage() != null) {
            return new WhyView(view, null, Map.of(), engine.clock().instant());
        }
        PlanningInput input = engine.storedPlanningInput();
        Instant now = engine.clock().instant();
        if (input.queue().pending().stream().noneMatch(job -> job.id() == id)) {
            return new WhyView(reading.getJob(id), null, Map.of(), now); // it started or ended meanwhile
        }
        Explanation explanation = Explainer.explain(input.queue(), input.nodes(), input.policy(), now, id,
                input.ignored());
        Map<String, Instant> lastSeen = new HashMap<>();
        for (NodeRecord record : input.records().values()) {
            if (record.lastSeenAt() != null) {
                lastSeen.put(record.name(), record.lastSeenAt());
            }
        }
        return new WhyView(view, explanation, lastSeen, now);
    }
}
