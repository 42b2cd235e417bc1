package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.daemon.DaemonServer;
import dev.nvidb.daemon.SubmitTicks;
import dev.nvidb.daemon.DaemonWire;
import dev.nvidb.model.JobState;
import dev.nvidb.queue.Passes;
import dev.nvidb.queue.Queue;
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

    /** The passes of a queue over the cluster's engine, as {@code queue tick --background} hands them to the ticker. */
    private static Passes queue(FakeCluster cluster) {
        QueueEngine engine = new QueueEngine(cluster.database, cluster.queueNodes, cluster.clock, cluster.settings);
        return new Queue(engine, Duration.ofSeconds(5), unused -> { }).passes(); // the ticker never pauses through it
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

    @Test
    void whileItLingersTheTickerTakesHandedLinesAndFinishesTheOneUnderWayBeforeItExits() throws Exception {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            cluster.submit("first");
            Path socket = DaemonWire.socket(cluster.database.file());
            java.util.concurrent.CountDownLatch handed = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicLong submitted = new java.util.concurrent.atomic.AtomicLong();
            // The handler stands in for a handed `job submit`: it stores its job after the ticker's
            // linger has run out, so only the drain on close and the check after it can place it.
            DaemonServer.Commands submit = connection -> {
                handed.countDown();
                // The ticker's linger runs out while this line runs: it takes its socket away
                // (and then waits for this line) before the job below is stored.
                Instant gone = Instant.now().plusSeconds(20);
                while (java.nio.file.Files.exists(socket) && Instant.now().isBefore(gone)) {
                    sleep(20); // a poll with a deadline
                }
                submitted.set(cluster.submit("handed"));
                connection.write(java.nio.ByteBuffer.wrap(new byte[] {'x'}));
            };
            CompletableFuture<Integer> ticker = CompletableFuture.supplyAsync(
                    () -> SubmitTicks.run(queue(cluster), Duration.ofSeconds(2), submit));
            Instant deadline = Instant.now().plusSeconds(20);
            while (!java.nio.file.Files.exists(socket) && Instant.now().isBefore(deadline)) {
                Thread.onSpinWait();
            }
            byte[] answer = new byte[1];
            try (java.nio.channels.SocketChannel client = connect(socket, deadline)) {
                client.write(java.nio.ByteBuffer.wrap("run\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
                assertTrue(handed.await(20, TimeUnit.SECONDS), "the line reached the handler");
                java.nio.ByteBuffer reply = java.nio.ByteBuffer.wrap(answer);
                while (reply.hasRemaining() && client.read(reply) >= 0) {
                    // the handler's one byte
                }
            }
            assertEquals('x', answer[0], "the ticker finished the line before it went");
            ticker.get(30, TimeUnit.SECONDS);
            assertEquals(JobState.RUNNING, cluster.job(submitted.get()).state(), "the handed submit was placed");
            assertFalse(java.nio.file.Files.exists(socket), "the socket goes with the ticker");
            assertTrue(SubmitTicks.idle(cluster.database.file()));
        }
    }

    /** The file appears at bind, a moment before the socket listens: retries until it does. */
    private static java.nio.channels.SocketChannel connect(Path socket, Instant deadline) throws Exception {
        while (true) {
            java.nio.channels.SocketChannel client = java.nio.channels.SocketChannel.open(java.net.StandardProtocolFamily.UNIX);
            try {
                client.connect(java.net.UnixDomainSocketAddress.of(socket));
                return client;
            } catch (java.net.ConnectException e) {
                client.close();
                assertTrue(Instant.now().isBefore(deadline), "the ticker never listened");
                Thread.sleep(10); // a poll with a deadline
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
