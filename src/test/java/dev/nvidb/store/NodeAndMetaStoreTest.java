package dev.nvidb.store;

import static dev.nvidb.store.Specs.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeAndMetaStoreTest {

    /** 10 s, 20 s, 40 s, … capped at 5 min. */
    private static final IntFunction<Duration> BACKOFF =
            failures -> Duration.ofSeconds(Math.min(300, 10L << Math.min(failures - 1, 10)));

    @TempDir
    Path dir;

    @Test
    void failuresBackOffAndAnAnswerResetsThem() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            NodeStore nodes = new NodeStore(database);
            NodeRecord first = nodes.recordFailure("gpu-a", "connect timed out", at(0), BACKOFF);
            assertEquals(1, first.consecutiveFailures());
            assertEquals(at(10), first.backoffUntil());
            NodeRecord second = nodes.recordFailure("gpu-a", "connect timed out", at(10), BACKOFF);
            assertEquals(at(30), second.backoffUntil());
            assertTrue(second.backingOff(at(29)));
            assertFalse(second.backingOff(at(30)));

            nodes.recordAnswer("gpu-a", "{\"gpus\": []}", "boot-1", at(40));
            NodeRecord answered = nodes.findNode("gpu-a").orElseThrow();
            assertEquals(0, answered.consecutiveFailures());
            assertNull(answered.backoffUntil());
            assertNull(answered.lastError());
            assertEquals(at(40), answered.lastSeenAt());
            assertEquals("boot-1", answered.bootId());
        }
    }

    @Test
    void drainAndIgnoreAreRecordedOnceEach() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            NodeStore nodes = new NodeStore(database);
            assertTrue(nodes.drain("gpu-b", at(1)), "a node never probed can be drained");
            assertFalse(nodes.drain("gpu-b", at(2)));
            assertTrue(nodes.findNode("gpu-b").orElseThrow().drained());
            assertTrue(nodes.resume("gpu-b", at(3)));
            assertFalse(nodes.resume("gpu-b", at(3)));
            assertTrue(nodes.ignore("gpu-c", at(4)));
            assertTrue(nodes.unignore("gpu-c", at(5)));
            assertEquals(List.of("gpu-b", "gpu-c"), nodes.listNodes().stream().map(NodeRecord::name).toList());
            assertEquals(List.of("drained", "resumed", "ignored", "unignored"),
                    new EventStore(database).listSince(0, null, 10).stream().map(Event::kind).toList());
        }
    }

    @Test
    void metaKeepsValuesAndTimes() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            MetaStore meta = new MetaStore(database);
            assertEquals(Optional.empty(), meta.getInstant(MetaStore.LAST_TICK_AT));
            meta.putInstant(MetaStore.LAST_TICK_AT, at(5));
            meta.putInstant(MetaStore.LAST_TICK_AT, at(6));
            assertEquals(Optional.of(at(6)), meta.getInstant(MetaStore.LAST_TICK_AT));
            meta.put(MetaStore.LAST_TICK_AT, null);
            assertEquals(Optional.empty(), meta.get(MetaStore.LAST_TICK_AT));
        }
    }
}
