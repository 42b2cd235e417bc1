package dev.nvidb.queue;

import dev.nvidb.engine.QueueEngine;
import dev.nvidb.engine.TickMode;
import dev.nvidb.engine.TickReport;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * Bringing the queue up to date: a scheduler pass now, one when the last is older than
 * {@code tick_min_interval}, or one every interval until interrupted ({@code queue tick --watch}).
 * Ticks are rate-limited and lease-guarded, so many clients make one round of SSH traffic.
 */
public final class Ticking {

    private final QueueEngine engine;
    private final Pause pause;

    Ticking(QueueEngine engine, Pause pause) {
        this.engine = engine;
        this.pause = pause;
    }

    /** A pass now (never two at once: if another client is ticking, its result is awaited). */
    public TickResult now() {
        return result(engine.tick(TickMode.FORCE));
    }

    /** A pass unless the last one is younger than {@code tick_min_interval}. */
    public TickResult ifDue() {
        return result(engine.tick(TickMode.IF_DUE));
    }

    /**
     * Ticks now and then every {@code interval}, giving each result to {@code each}, until
     * {@code each} answers false or the pause is interrupted.
     */
    public void watch(Duration interval, Predicate<TickResult> each) {
        while (each.test(now())) {
            pause.pause(interval);
        }
    }

    private static TickResult result(TickReport report) {
        return new TickResult(report.ran(), report.answered(), report.failed(), report.skipped(), report.settled(),
                report.placed(), report.duration());
    }
}
