package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.JobState;
import dev.nvidb.model.TickReport;
import dev.nvidb.store.LeaseStore;
import dev.nvidb.store.NodeStore;
import dev.nvidb.testing.FakeNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7 item 4: one command run with the clock 2 h ahead, or the clock stepping back 1 h,
 * must not turn later ticks into no-ops until real time catches up. Each case leaves behind
 * what such a command leaves: a last tick, a node's back-off and a lease (of a client killed
 * mid-tick on a host this one cannot check) stamped with the wrong time; then ticks at the
 * right time still run, contact the node and start a job.
 */
@org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
class ClockSkewTest {

    @TempDir
    Path dir;

    @Test
    void aCommandRunTwoHoursAheadDoesNotWedgeTheTicksAtTheRightTime() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            QueueEngine engine = engine(cluster);
            cluster.clock.jump(Duration.ofHours(2));
            leaveSkewedTraces(cluster, engine);
            cluster.clock.jump(Duration.ofHours(-2));
            assertTicksStillRun(cluster, engine);
        }
    }

    @Test
    void aClockSteppingBackAnHourDoesNotWedgeTheTicks() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            QueueEngine engine = engine(cluster);
            leaveSkewedTraces(cluster, engine);
            cluster.clock.jump(Duration.ofHours(-1));
            assertTicksStillRun(cluster, engine);
        }
    }

    @Test
    void aLeaseWithinItsLengthIsStillRespected() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            QueueEngine engine = engine(cluster);
            Instant now = cluster.clock.instant();
            // Another host's client took the lease a moment ago: its tick is under way.
            assertTrue(new LeaseStore(cluster.database).acquire(otherHost(), now, Duration.ofSeconds(30)));
            TickGuard guard = new TickGuard(cluster.database, cluster.clock, Duration.ofSeconds(30),
                    Duration.ofSeconds(3), Duration.ofMillis(300));
            assertTrue(guard.run(TickMode.FORCE, () -> "ticked").isEmpty(), "a live lease is waited for, not taken");
        }
    }

    private static QueueEngine engine(FakeCluster cluster) {
        return new QueueEngine(cluster.database, cluster.queueNodes, cluster.clock, cluster.settings);
    }

    /**
     * At the wrong time: a tick that finds the node down (a back-off and a last tick stamped
     * then), and a client on another host killed while it held the lease.
     */
    private static void leaveSkewedTraces(FakeCluster cluster, QueueEngine engine) {
        cluster.node("node-a").reach(FakeNode.Reach.DOWN);
        assertTrue(engine.tick(TickMode.FORCE).ran(), "the skewed command ticks");
        assertTrue(new NodeStore(cluster.database).findNode("node-a").orElseThrow()
                .backingOff(cluster.clock.instant()), "the node backs off from the skewed time");
        assertTrue(new LeaseStore(cluster.database).acquire(otherHost(), cluster.clock.instant(),
                Duration.ofSeconds(30)), "a killed client's lease stays behind");
        cluster.node("node-a").reach(FakeNode.Reach.UP);
    }

    private static void assertTicksStillRun(FakeCluster cluster, QueueEngine engine) {
        long id = cluster.submit("after-the-jump");
        long probes = cluster.node("node-a").probes();
        TickReport due = engine.tick(TickMode.IF_DUE);
        assertTrue(due.ran(), "a tick that is due runs: " + due);
        assertEquals(probes + 1, cluster.node("node-a").probes(), "the node is contacted despite its skewed back-off");
        assertEquals(JobState.RUNNING, cluster.job(id).state(), "the job started");
        cluster.clock.advanceSeconds(60);
        assertTrue(engine.tick(TickMode.IF_DUE).ran(), "and the next one too");
        assertTrue(engine.tick(TickMode.FORCE).ran(), "a forced tick runs as well");
        assertFalse(new LeaseStore(cluster.database).current().held(cluster.clock.instant()), "released");
    }

    /** A holder on another host: never provably dead from here. */
    private static String otherHost() {
        return new LeaseOwner("0f0f", "elsewhere", "boot-of-elsewhere", "pid:[1]", 4242, 99L, 30_000,
                "nvidb job ls").encode();
    }
}
