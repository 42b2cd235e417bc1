package dev.nvidb.engine;

import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.store.Database;
import dev.nvidb.store.Lease;
import dev.nvidb.store.LeaseStore;
import dev.nvidb.store.MetaStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Decides whether this client runs a tick: not if the last one is fresh enough
 * ({@code tick_min_interval}); not while another client holds the lease, in which case it
 * waits (bounded) for that tick and uses its result. The holder renews the lease from its own
 * thread and connection, so a short lease still covers a long tick, and a client killed
 * mid-tick blocks the others only until its lease expires, or not at all when it ran on this
 * host and is provably gone ({@link LeaseOwner}).
 *
 * <p>The wall clock may jump either way. Durations (how long to wait) are measured on the
 * monotonic clock; times shared through the database are trusted only up to
 * {@link Lease#SKEW_TOLERANCE} ahead of this clock: a last tick "from the future" does not
 * count as fresh, and a lease expiring further ahead than its own length is taken over.
 */
final class TickGuard {

    private static final Duration POLL = Duration.ofMillis(50);
    /** A wait shorter than this goes unmentioned; a longer one says whose tick it waits for. */
    private static final Duration NOTICE_AFTER = Duration.ofSeconds(1);

    private final Database database;
    private final Path databaseFile;
    private final Clock clock;
    private final Duration lease;
    private final Duration minInterval;
    private final Duration maxWait;
    private final TickClient client;

    TickGuard(Database database, Clock clock, Duration lease, Duration minInterval, Duration maxWait) {
        this(database, clock, lease, minInterval, maxWait, TickClient.quiet());
    }

    TickGuard(Database database, Clock clock, Duration lease, Duration minInterval, Duration maxWait,
              TickClient client) {
        this.database = database;
        this.databaseFile = database.file();
        this.clock = clock;
        this.lease = lease;
        this.minInterval = minInterval;
        this.maxWait = maxWait;
        this.client = client;
    }

    /** Runs {@code tick} under the lease, or waits for another client's tick; empty when this client did not tick. */
    <T> Optional<T> run(TickMode mode, Supplier<T> tick) {
        Instant asked = clock.instant();
        MetaStore meta = new MetaStore(database);
        LeaseStore leases = new LeaseStore(database);
        long waitStarted = System.nanoTime();
        String announced = null;
        String holder = LeaseOwner.thisProcess(lease, client.command()).encode();
        while (true) {
            // One transaction decides "fresh enough" and takes the lease, so a tick that ends
            // between the two cannot let a waiting client tick a second time.
            Decision decision = database.write("take the tick lease", conn -> {
                Instant now = clock.instant();
                if (fresh(mode, asked, now, minInterval, meta.getInstant(conn, MetaStore.LAST_TICK_STARTED_AT),
                        meta.getInstant(conn, MetaStore.LAST_TICK_AT))) {
                    return new Decision(Outcome.FRESH, null);
                }
                Lease[] seen = new Lease[1];
                if (!leases.acquire(conn, holder, now, lease, current -> takeable(seen[0] = current, now))) {
                    return new Decision(Outcome.BUSY, seen[0]);
                }
                meta.putInstant(conn, MetaStore.LAST_TICK_STARTED_AT, now);
                return new Decision(Outcome.TAKEN, null);
            });
            if (decision.outcome() == Outcome.FRESH) {
                return Optional.empty();
            }
            if (decision.outcome() == Outcome.TAKEN) {
                return Optional.of(holding(holder, leases, meta, tick));
            }
            long waited = System.nanoTime() - waitStarted;
            if (waited > maxWait.toNanos()) {
                return Optional.empty();
            }
            if (waited >= NOTICE_AFTER.toNanos() && decision.seen() != null
                    && !decision.seen().holder().equals(announced)) {
                announced = decision.seen().holder();
                client.notices().accept(waitingFor(decision.seen(), clock.instant()));
            }
            // Another client is ticking: its result lands in the database. Poll until it is done.
            pause();
        }
    }

    private enum Outcome { FRESH, TAKEN, BUSY }

    private record Decision(Outcome outcome, Lease seen) {
    }

    /**
     * Whether the lease may be taken: free, expired, expiring further ahead than its holder's
     * own length allows (a clock that was ahead), or held by a process provably gone.
     */
    private boolean takeable(Lease current, Instant now) {
        if (current.holder() == null) {
            return true;
        }
        Optional<LeaseOwner> owner = LeaseOwner.parse(current.holder());
        Duration length = owner.map(LeaseOwner::length).filter(d -> d.compareTo(lease) > 0).orElse(lease);
        return current.free(now, length) || owner.map(LeaseOwner::provablyDead).orElse(false);
    }

    /** "waiting for the tick of pid 1234 (nvidb job ls, started 3 s ago)" */
    static String waitingFor(Lease held, Instant now) {
        Optional<LeaseOwner> owner = LeaseOwner.parse(held.holder());
        String who = owner.map(LeaseOwner::describe).orElse("another client");
        String since = "";
        if (held.acquiredAt() != null && !held.acquiredAt().isAfter(now)) {
            since = "started " + Duration.between(held.acquiredAt(), now).toSeconds() + " s ago";
        }
        String until = held.expiresAt() == null ? "" : "its lease lasts "
                + Math.max(0, Duration.between(now, held.expiresAt()).toSeconds()) + " s more unless renewed";
        String detail = String.join(", ", java.util.stream.Stream.of(since, until).filter(s -> !s.isEmpty()).toList());
        return "waiting for the tick of " + who + (detail.isEmpty() ? "" : "; " + detail);
    }

    /**
     * Whether a finished tick already covers this request. {@code IF_DUE}: one ended within
     * {@code minInterval}. {@code FORCE}: one that started after the request was made and has
     * ended, so it read everything the caller wrote before asking (a tick that merely ended
     * later may have read the queue before the caller's submit). A tick recorded further ahead
     * of {@code now} than {@link Lease#SKEW_TOLERANCE} was stamped by a clock that was ahead (or
     * this one stepped back): it covers nothing, or every tick would be skipped until real time
     * caught up with it.
     */
    static boolean fresh(TickMode mode, Instant asked, Instant now, Duration minInterval, Optional<Instant> started,
                         Optional<Instant> ended) {
        if (ended.isEmpty()) {
            return false;
        }
        Instant latestTrusted = now.plus(Lease.SKEW_TOLERANCE);
        if (ended.get().isAfter(latestTrusted) || started.isPresent() && started.get().isAfter(latestTrusted)) {
            return false;
        }
        if (mode == TickMode.IF_DUE) {
            return ended.get().isAfter(asked.minus(minInterval));
        }
        return started.isPresent() && started.get().isAfter(asked) && !ended.get().isBefore(started.get());
    }

    private <T> T holding(String holder, LeaseStore leases, MetaStore meta, Supplier<T> tick) {
        Thread renewer = renewer(holder);
        renewer.start();
        try {
            return tick.get();
        } finally {
            renewer.interrupt();
            joinQuietly(renewer);
            database.write("end the tick", conn -> {
                meta.putInstant(conn, MetaStore.LAST_TICK_AT, clock.instant());
                return leases.release(conn, holder);
            });
        }
    }

    /**
     * The renewer closes its own connection; never let that overlap closing ours. Waits also
     * when this thread was interrupted (Ctrl-C mid-tick): the flag is set again afterwards.
     */
    private static void joinQuietly(Thread thread) {
        boolean interrupted = Thread.interrupted();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (thread.isAlive() && System.nanoTime() < deadline) {
            try {
                thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Keeps the lease alive every third of its length, on a connection of its own. */
    private Thread renewer(String holder) {
        Thread thread = new Thread(() -> {
            try (Database own = Database.open(databaseFile)) {
                LeaseStore leases = new LeaseStore(own);
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(Math.max(100, lease.toMillis() / 3));
                    if (!leases.renew(holder, clock.instant(), lease)) {
                        return;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                // Renewal is best effort: a lost lease only lets another client tick too early.
            }
        }, "tick-lease");
        thread.setDaemon(true);
        return thread;
    }

    /** Who holds the lease now (for status output). */
    Lease current() {
        return new LeaseStore(database).current();
    }

    private static void pause() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedByUser("interrupted while waiting for another client's tick", e);
        }
    }
}
