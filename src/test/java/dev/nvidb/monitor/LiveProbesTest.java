package dev.nvidb.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
import dev.nvidb.node.LocalShell;
import dev.nvidb.node.Node;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** The live monitor's workers: a hung node holds up no other, a failing one backs off. */
class LiveProbesTest {

    private static Node node(String name) {
        return new Node(name, false, new LocalShell(name, Map.of()));
    }

    private static ProbeResult answered(Node node) {
        return ProbeResult.answered(node.name(), "local", new NodeSnapshot(GpuSource.NVML, null, NodeInfo.unknown(),
                null, null, List.of()), Duration.ZERO);
    }

    @Test
    void backOffStartsAtFiveSecondsDoublesAndStopsAtAMinute() {
        Backoff backoff = new Backoff(Duration.ofSeconds(2));
        assertEquals(Duration.ofSeconds(2), backoff.after(0));
        assertEquals(Duration.ofSeconds(5), backoff.after(1));
        assertEquals(Duration.ofSeconds(10), backoff.after(2));
        assertEquals(Duration.ofSeconds(40), backoff.after(4));
        assertEquals(Duration.ofSeconds(60), backoff.after(5));
        assertEquals(Duration.ofSeconds(60), backoff.after(50));
        assertEquals(Duration.ofSeconds(90), new Backoff(Duration.ofSeconds(90)).after(3));
    }

    @Test
    void aHungNodeDoesNotHoldUpTheOthersAndAFailedOneShowsItsRetry() throws Exception {
        Node hung = node("hung");
        Node fine = node("fine");
        Node broken = node("broken");
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger fineProbes = new AtomicInteger();
        try (LiveProbes probes = new LiveProbes(List.of(hung, fine, broken), node -> {
            if (node == hung) {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return answered(node);
            }
            if (node == fine) {
                fineProbes.incrementAndGet();
                return answered(node);
            }
            return ProbeResult.failed(node.name(), "x", "broken: refused", Duration.ZERO);
        }, new Backoff(Duration.ofMillis(10)), Clock.systemUTC()).start()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (fineProbes.get() < 3 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
            assertTrue(fineProbes.get() >= 3, "the fine node is probed again and again while another hangs");
            List<LiveProbes.NodeState> states = probes.nodes();
            assertNull(states.get(0).latest(), "the hung node has no result yet");
            assertNotNull(states.get(1).latest().snapshot());
            assertEquals("broken: refused", states.get(2).latest().failure());
            assertNotNull(states.get(2).retryAt(), "a failed node says when it is tried again");
            assertEquals(1, states.get(2).sequence(), "and waits its back-off (5 s) before the next try");
            release.countDown();
        }
    }
}
