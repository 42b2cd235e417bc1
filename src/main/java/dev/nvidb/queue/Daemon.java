package dev.nvidb.queue;

import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.error.NvidbException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;

/**
 * {@code queue daemon}: the queue kept moving without anyone typing. Each pass ticks (placing,
 * settling and enforcing timeouts), then delivers alerts (unless {@code --no-notify}; see
 * {@link Delivering}), then does what the pass owes besides. A pass that fails
 * (the database busy past its timeout, a node layer error) is reported and the next pass
 * runs as usual: an unattended daemon outlives a bad minute.
 */
public final class Daemon {

    private final Ticking ticking;
    private final Clock clock;
    private final Pause pause;
    private final Delivering delivering;

    /** @param delivering the alert delivery after each tick, or null to tick only ({@code --no-notify}) */
    Daemon(Ticking ticking, Clock clock, Pause pause, Delivering delivering) {
        this.ticking = ticking;
        this.clock = clock;
        this.pause = pause;
        this.delivering = delivering;
    }

    /** One pass now. */
    public DaemonPass pass() {
        Instant started = clock.instant();
        TickResult tick = ticking.now();
        return notify(new DaemonPass(started, tick, null));
    }

    /**
     * Delivers alerts after the tick (the alerts it raised included). A delivery that fails on a
     * channel is in the pass's report; one that cannot reach the database fails the pass, keeping
     * its tick.
     */
    private DaemonPass notify(DaemonPass pass) {
        if (delivering == null) {
            return pass;
        }
        try {
            return pass.withNotify(delivering.deliver(), null);
        } catch (InterruptedByUser e) {
            throw e;
        } catch (NvidbException e) {
            return pass.withNotify(null, "alert delivery failed: " + e.getMessage());
        }
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
