package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.store.Database;
import dev.nvidb.store.Lease;
import dev.nvidb.store.LeaseStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7 item 8: a client killed while it holds the tick lease must not stall the next one
 * for the lease's length. A holder on this host (same host name, boot id and pid namespace)
 * whose process is gone is taken over at once; a live one, here or on another host, is waited
 * for, and the waiter says whose tick it waits for.
 */
@org.junit.jupiter.api.Timeout(value = 120, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
class DeadHolderTest {

    /** Long, so that waiting it out is unmistakable next to an immediate takeover. */
    private static final Duration LEASE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void aKilledHolderOnThisHostIsTakenOverAtOnceAndALiveOneIsWaitedFor() throws Exception {
        Path file = dir.resolve("queue.db");
        Database.open(file).close();
        Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LeaseHolderMain.class.getName(), file.toString(),
                Long.toString(LEASE.toSeconds()))
                .redirectError(dir.resolve("holder-stderr.txt").toFile()).start();
        try (Database database = Database.open(file)) {
            BufferedReader output = new BufferedReader(new InputStreamReader(holder.getInputStream(),
                    StandardCharsets.UTF_8));
            assertEquals("holding", output.readLine(), "the child holds the lease");
            Lease held = new LeaseStore(database).current();
            assertTrue(held.held(Instant.now()));

            List<String> notices = new CopyOnWriteArrayList<>();
            Optional<String> whileAlive = guard(database, Duration.ofMillis(1500), notices)
                    .run(TickMode.FORCE, () -> "ticked");
            assertTrue(whileAlive.isEmpty(), "a live holder on this host is respected");
            assertEquals(1, notices.size(), "one line says what is waited for: " + notices);
            assertTrue(notices.get(0).startsWith("waiting for the tick of pid " + holder.pid()
                    + " (nvidb queue tick); started "), notices.get(0));

            holder.destroyForcibly();
            assertTrue(holder.waitFor(30, TimeUnit.SECONDS));
            long start = System.nanoTime();
            Optional<String> after = guard(database, LEASE.multipliedBy(2), notices).run(TickMode.FORCE, () -> "ticked");
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertEquals(Optional.of("ticked"), after, "the next client ticks");
            assertTrue(took.compareTo(LEASE.dividedBy(4)) < 0,
                    "the dead holder's lease (" + LEASE + ") was not waited out: took " + took);
            assertTrue(new LeaseStore(database).current().generation() > held.generation(), "taken over");
        } finally {
            holder.destroyForcibly();
        }
    }

    @Test
    void aHolderOnAnotherHostIsRespectedUntilItsLeaseExpires() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            String other = new LeaseOwner("f00d", "elsewhere", "boot-of-elsewhere", "pid:[1]", 4242, 99L, 2_000,
                    "nvidb job ls").encode();
            Instant taken = Instant.now();
            assertTrue(new LeaseStore(database).acquire(other, taken, Duration.ofSeconds(2)));
            List<String> notices = new CopyOnWriteArrayList<>();
            Instant[] ranAt = new Instant[1];
            Optional<String> result = guard(database, Duration.ofSeconds(30), notices).run(TickMode.FORCE, () -> {
                ranAt[0] = Instant.now();
                return "ticked";
            });
            assertEquals(Optional.of("ticked"), result);
            assertFalse(ranAt[0].isBefore(taken.plusSeconds(2)), "not before the other host's lease expired");
            assertEquals(1, notices.size(), notices::toString);
            assertTrue(notices.get(0).startsWith("waiting for the tick of pid 4242 on elsewhere (nvidb job ls)"),
                    notices.get(0));
        }
    }

    private static TickGuard guard(Database database, Duration maxWait, List<String> notices) {
        return new TickGuard(database, Clock.systemUTC(), LEASE, Duration.ZERO, maxWait,
                new TickClient("nvidb job ls", notices::add));
    }
}
