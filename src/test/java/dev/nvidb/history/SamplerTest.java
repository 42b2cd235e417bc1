package dev.nvidb.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.ProbeResult;
import dev.nvidb.node.LocalShell;
import dev.nvidb.node.Node;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** nvidb log's sampling: every probe recorded, a hung node holds up no other, the schedule does not bunch up. */
class SamplerTest {

    @TempDir
    Path dir;

    private static Node node(String name) {
        return new Node(name, false, new LocalShell(name, Map.of()));
    }

    @Test
    void aHungNodeHoldsUpNoOtherAndAFailingOneIsRecordedAndRetriedOnBackOff() throws Exception {
        Node fine = node("fine");
        Node hung = node("hung");
        Node broken = node("broken");
        CountDownLatch release = new CountDownLatch(1);
        List<Sampler.Change> changes = new CopyOnWriteArrayList<>();
        try (GpuLog log = GpuLog.open(dir.resolve("g.db"))) {
            long session = log.startSession(Instant.now(), Duration.ofMillis(100), "ws", 1, List.of("fine", "hung", "broken"));
            Sampler sampler = new Sampler(log, session, List.of(fine, hung, broken), node -> {
                if (node == hung) {
                    await(release);
                    return HistorySamples.idle("hung", 1);
                }
                return node == broken ? HistorySamples.failed("broken", "connection refused") : HistorySamples.idle("fine", 2);
            }, Duration.ofMillis(100), Clock.systemUTC(), changes::add).start();
            try {
                poll("fine sampled 5 times while hung never answered",
                        () -> log.samples(new SampleQuery(session, "fine", 0, null, null, 100)).size() >= 5);
                assertEquals(0, log.samples(new SampleQuery(session, "hung", null, null, null, 100)).size());
                List<NodeFailure> failures = log.failures(session, null);
                assertTrue(failures.size() >= 1, "the failed probe is recorded: " + failures);
                assertEquals(new NodeFailure(failures.get(0).at(), "broken", "connection refused"), failures.get(0));
                assertEquals("broken", changes.get(0).node(), "the user is told once: " + changes);
                assertEquals(1, changes.size(), "back-off: 5 s before broken is tried again, and no news until it answers");
            } finally {
                sampler.stop(Duration.ofMillis(100));
            }
            release.countDown();
            poll("the hung node's worker to end once its probe returned", () -> !workerAlive("hung"));
            assertEquals(0, log.samples(new SampleQuery(session, "hung", null, null, null, 100)).size(),
                    "a probe that returns after the stop is not recorded");
        }
    }

    @Test
    void aProbeThatOverrunsItsSlotsSkipsThemInsteadOfBunchingUp() throws Exception {
        AtomicInteger probes = new AtomicInteger();
        try (GpuLog log = GpuLog.open(dir.resolve("g.db"))) {
            long session = log.startSession(Instant.now(), Duration.ofMillis(100), "ws", 1, List.of("slow"));
            Sampler sampler = new Sampler(log, session, List.of(node("slow")), node -> {
                if (probes.incrementAndGet() == 1) {
                    sleep(550);
                }
                return HistorySamples.idle("slow", 1);
            }, Duration.ofMillis(100), Clock.systemUTC(), change -> { }).start();
            try {
                poll("three samples", () -> log.samples(SampleQuery.session(session)).size() >= 3);
            } finally {
                sampler.stop(Duration.ofSeconds(1));
            }
            List<SampleRow> rows = log.samples(SampleQuery.session(session));
            Duration gap = Duration.between(rows.get(1).at(), rows.get(2).at());
            assertTrue(gap.toMillis() >= 50, "after the long probe the next ones keep the interval, not back to back: " + gap);
        }
    }

    @Test
    void aLogThatCannotBeWrittenStopsEveryNodeAndSaysWhy() throws Exception {
        GpuLog log = GpuLog.open(dir.resolve("g.db"));
        long session = log.startSession(Instant.now(), Duration.ofMillis(50), "ws", 1, List.of("a", "b"));
        AtomicInteger probes = new AtomicInteger();
        Sampler sampler = new Sampler(log, session, List.of(node("a"), node("b")), node -> {
            probes.incrementAndGet();
            return HistorySamples.idle(node.name(), 1);
        }, Duration.ofMillis(50), Clock.systemUTC(), change -> { }).start();
        poll("a few samples", () -> sampler.recorded() >= 4);
        log.close();
        poll("the write failure is seen", () -> sampler.writeFailure() != null);
        assertNotNull(sampler.writeFailure().getMessage());
        poll("both workers to end on their own", () -> !workerAlive("a") && !workerAlive("b"));
        int after = probes.get();
        sampler.stop(Duration.ofSeconds(1));
        assertEquals(after, probes.get(), "no probe once the workers ended");
    }

    private static boolean workerAlive(String node) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(thread -> thread.getName().equals("log-" + node) && thread.isAlive());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void poll(String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " within 20 s");
            }
            Thread.sleep(20);
        }
    }
}
