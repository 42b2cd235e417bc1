package dev.nvidb.engine;

import dev.nvidb.store.Database;
import dev.nvidb.store.Lease;
import dev.nvidb.store.LeaseStore;
import dev.nvidb.store.MetaStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Decides whether this client runs a tick: not if the last one is fresh enough
 * ({@code tick_min_interval}); not while another client holds the lease, in which case it
 * waits (bounded) for that tick and uses its result. The holder renews the lease from its own
 * thread and connection, so a short lease still covers a long tick, and a client killed
 * mid-tick blocks the others only until its lease expires.
 */
final class TickGuard {

    private static final Duration POLL = Duration.ofMillis(50);

    private final Database database;
    private final Path databaseFile;
    private final Clock clock;
    private final Duration lease;
    private final Duration minInterval;
    private final Duration maxWait;

    TickGuard(Database database, Clock clock, Duration lease, Duration minInterval, Duration maxWait) {
        this.database = database;
        this.databaseFile = database.file();
        this.clock = clock;
        this.lease = lease;
        this.minInterval = minInterval;
        this.maxWait = maxWait;
    }

    /** Runs {@code tick} under the lease, or waits for another client's tick; empty when this client did not tick. */
    <T> Optional<T> run(TickMode mode, Supplier<T> tick) {
        Instant asked = clock.instant();
        MetaStore meta = new MetaStore(database);
        LeaseStore leases = new LeaseStore(database);
        Instant deadline = asked.plus(maxWait);
        while (true) {
            String holder = UUID.randomUUID().toString();
            // One transaction decides "fresh enough" and takes the lease, so a tick that ends
            // between the two cannot let a waiting client tick a second time.
            Decision decision = database.write("take the tick lease", conn -> {
                if (fresh(mode, asked, minInterval, meta.getInstant(conn, MetaStore.LAST_TICK_STARTED_AT),
                        meta.getInstant(conn, MetaStore.LAST_TICK_AT))) {
                    return Decision.FRESH;
                }
                Instant now = clock.instant();
                if (!leases.acquire(conn, holder, now, lease)) {
                    return Decision.BUSY;
                }
                meta.putInstant(conn, MetaStore.LAST_TICK_STARTED_AT, now);
                return Decision.TAKEN;
            });
            if (decision == Decision.FRESH) {
                return Optional.empty();
            }
            if (decision == Decision.TAKEN) {
                return Optional.of(holding(holder, leases, meta, tick));
            }
            if (clock.instant().isAfter(deadline)) {
                return Optional.empty();
            }
            // Another client is ticking: its result lands in the database. Poll until it is done.
            pause();
        }
    }

    private enum Decision { FRESH, TAKEN, BUSY }

    /**
     * Whether a finished tick already covers this request. {@code IF_DUE}: one ended within
     * {@code minInterval}. {@code FORCE}: one that started after the request was made and has
     * ended, so it read everything the caller wrote before asking (a tick that merely ended
     * later may have read the queue before the caller's submit).
     */
    static boolean fresh(TickMode mode, Instant asked, Duration minInterval, Optional<Instant> started,
                         Optional<Instant> ended) {
        if (ended.isEmpty()) {
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
            throw new IllegalStateException("interrupted while waiting for another client's tick", e);
        }
    }
}
