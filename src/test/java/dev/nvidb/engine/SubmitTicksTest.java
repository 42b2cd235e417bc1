package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.JobState;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The background submit ticker: places what was submitted, shares one run with a loop of submits, runs once. */
class SubmitTicksTest {

    @TempDir
    Path dir;

    private static QueueEngine queue(FakeCluster cluster) {
        return new QueueEngine(cluster.database, cluster.queueNodes, cluster.clock, cluster.settings);
    }

    @Test
    void placesWhatWasSubmittedAndExitsWhenNothingNewArrives() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long id = cluster.submit("train");
            assertTrue(SubmitTicks.idle(cluster.database.file()));
            assertEquals(1, SubmitTicks.run(queue(cluster), Duration.ofMillis(50)));
            assertEquals(JobState.RUNNING, cluster.job(id).state());
            assertTrue(SubmitTicks.idle(cluster.database.file()), "the lock is released");
        }
    }

    @Test
    void aSubmitDuringTheLingerIsPlacedByTheSameTicker() throws Exception {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            cluster.submit("first");
            CompletableFuture<Integer> ticker = CompletableFuture.supplyAsync(
                    () -> SubmitTicks.run(queue(cluster), Duration.ofSeconds(5)));
            Instant deadline = Instant.now().plusSeconds(20);
            while (cluster.node("node-a").probes() == 0 && Instant.now().isBefore(deadline)) {
                Thread.onSpinWait();
            }
            assertFalse(SubmitTicks.idle(cluster.database.file()), "a ticker holds the lock");
            long second = cluster.submit("second");
            while (cluster.job(second).state() == JobState.PENDING && Instant.now().isBefore(deadline)) {
                Thread.onSpinWait();
            }
            assertEquals(JobState.RUNNING, cluster.job(second).state(), "placed by the running ticker");
            assertFalse(ticker.isDone(), "still lingering for more");
            assertEquals(2, ticker.get(30, TimeUnit.SECONDS), "two ticks, one process");
        }
    }

    @Test
    void aSecondTickerLeavesTheWorkToTheFirst() throws Exception {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long id = cluster.submit("train");
            try (FileChannel channel = FileChannel.open(SubmitTicks.lockFile(cluster.database.file()),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
                assertFalse(SubmitTicks.idle(cluster.database.file()));
                int ticks = CompletableFuture.supplyAsync(() -> SubmitTicks.run(queue(cluster), Duration.ZERO))
                        .get(30, TimeUnit.SECONDS);
                assertEquals(0, ticks);
                assertEquals(JobState.PENDING, cluster.job(id).state());
            }
        }
    }
}
