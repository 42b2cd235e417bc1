package dev.nvidb.store;

import static dev.nvidb.store.Specs.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeaseStoreTest {

    private static final Duration TTL = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void ofTwoContendersExactlyOneHoldsTheLease() throws Exception {
        Path file = dir.resolve("queue.db");
        Database.open(file).close();
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try {
            // Each round starts 100 s after the last, when the previous winner's lease has expired.
            for (int round = 0; round < 20; round++) {
                CyclicBarrier start = new CyclicBarrier(2);
                Instant now = at(round * 100L);
                List<Future<Boolean>> tries = List.of(
                        executor.submit(() -> contend(file, start, "alice", now)),
                        executor.submit(() -> contend(file, start, "bob", now)));
                int winners = 0;
                for (Future<Boolean> attempt : tries) {
                    winners += attempt.get(30, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertEquals(1, winners, "round " + round);
            }
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void anExpiredLeaseCanBeTakenOverAndItsFormerHolderCannotRenewOrReleaseIt() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            LeaseStore lease = new LeaseStore(database);
            assertTrue(lease.acquire("alice", at(0), TTL));
            assertFalse(lease.acquire("bob", at(29), TTL), "held until it expires");
            assertFalse(lease.renew("bob", at(10), TTL), "a non-holder cannot renew");
            assertTrue(lease.renew("alice", at(20), TTL));
            assertFalse(lease.acquire("bob", at(49), TTL), "renewed to 50 s");
            assertTrue(lease.acquire("bob", at(50), TTL), "expired: free for the taking");
            assertFalse(lease.renew("alice", at(51), TTL), "the former holder lost it");
            assertFalse(lease.release("alice"));
            Lease current = lease.current();
            assertTrue(current.heldBy("bob", at(51)));
            assertEquals(2, current.generation());
            assertTrue(lease.release("bob"));
            assertFalse(lease.current().held(at(52)));
            assertTrue(lease.acquire("carol", at(52), TTL), "released: free at once");
        }
    }

    @Test
    void aHolderCannotRenewALeaseThatHasAlreadyExpired() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            LeaseStore lease = new LeaseStore(database);
            assertTrue(lease.acquire("alice", at(0), TTL));
            assertFalse(lease.renew("alice", at(30), TTL));
            assertTrue(lease.acquire("alice", at(30), TTL), "it must acquire again, as anyone would");
        }
    }

    @Test
    void aLeaseExpiringFurtherAheadThanItsLengthWasWrittenByAClockAheadAndIsTakenOver() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            LeaseStore lease = new LeaseStore(database);
            // A client whose clock was two hours ahead took the lease and was killed.
            assertTrue(lease.acquire("ahead", at(7200), TTL));
            assertTrue(lease.current().fromTheFuture(at(0), TTL));
            assertTrue(lease.acquire("on-time", at(0), TTL), "not blocked until real time catches up");
            assertTrue(lease.current().heldBy("on-time", at(1)));
            // Within its length plus the tolerance, a lease is respected as it always was.
            assertFalse(lease.acquire("other", at(-4), TTL), "4 s of jitter is not skew");
            assertFalse(lease.current().fromTheFuture(at(-4), TTL));
        }
    }

    @Test
    void aCallerMayTakeALeaseItJudgesAbandonedButOnlyTheOneItJudged() throws Exception {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            LeaseStore lease = new LeaseStore(database);
            assertTrue(lease.acquire("dead", at(0), TTL));
            assertFalse(lease.acquire("next", at(1), TTL), "unexpired");
            boolean next = database.write("take over", conn -> lease.acquire(conn, "next", at(1), TTL,
                    current -> current.holder().equals("dead")));
            assertTrue(next, "its holder is provably dead");
            boolean third = database.write("take over", conn -> lease.acquire(conn, "third", at(2), TTL,
                    current -> current.holder().equals("dead")));
            assertFalse(third, "the judgement was about the dead holder only");
            assertEquals("next", lease.current().holder());
        }
    }

    private static boolean contend(Path file, CyclicBarrier start, String holder, Instant now) throws Exception {
        try (Database database = Database.open(file)) {
            LeaseStore lease = new LeaseStore(database);
            start.await();
            return lease.acquire(holder, now, TTL);
        }
    }
}
