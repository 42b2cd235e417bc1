package dev.nvidb.queue;

import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.error.NvidbException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;

/**
 * {@code queue daemon}: the queue kept moving without anyone typing. Each pass ticks (placing,
 * settling and enforcing timeouts), then does what the pass owes besides. A pass that fails
 * (the database busy past its timeout, a node layer error) is reported and the next pass
 * runs as usual: an unattended daemon outlives a bad minute.
 */
public final class Daemon {

    private final Ticking ticking;
    private final Clock clock;
    private final Pause pause;
    private final Maintenance maintenance;

    Daemon(Ticking ticking, Clock clock, Pause pause, Maintenance maintenance) {
        this.ticking = ticking;
        this.clock = clock;
        this.pause = pause;
        this.maintenance = maintenance;
    }

    /** One pass now. */
    public DaemonPass pass() {
        Instant started = clock.instant();
        TickResult tick = ticking.now();
        return new DaemonPass(started, tick, null, maintenance.due());
    }

    /**
     * Passes every {@code interval} (measured from the start of one pass to the start of the
     * next) until {@code each} answers false or the pause is interrupted. A pass that throws
     * is given to {@code each} as a failed pass, and the loop goes on.
     */
    public void run(Duration interval, Predicate<DaemonPass> each) {
        while (true) {
            Instant started = clock.instant();
            DaemonPass done;
            try {
                done = pass();
            } catch (InterruptedByUser e) {
                throw e;
            } catch (NvidbException e) {
                done = new DaemonPass(started, null, e.getMessage());
            }
            if (!each.test(done)) {
                return;
            }
            Duration spent = Duration.between(started, clock.instant());
            Duration left = interval.minus(spent);
            pause.pause(left.isNegative() ? Duration.ZERO : left);
        }
    }
}
