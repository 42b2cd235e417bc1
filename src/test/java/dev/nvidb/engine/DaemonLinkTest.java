package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.config.QueueConfig;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.daemon.DaemonLink;
import dev.nvidb.daemon.DaemonServer;
import dev.nvidb.daemon.DaemonWire;
import dev.nvidb.model.JobState;
import dev.nvidb.model.TickReport;
import dev.nvidb.node.NodeDirectory;
import dev.nvidb.store.Database;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm path between a command and a running daemon, over a real Unix socket: a command's
 * tick is run by the daemon's engine (whose nodes here are {@link dev.nvidb.testing.FakeNode}s),
 * while the command's own engine has nodes that fail the test if they are ever touched.
 */
class DaemonLinkTest {

    @TempDir
    Path dir;

    private FakeCluster cluster;
    private DaemonServer server;
    private Thread loop;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicInteger passes = new AtomicInteger();
    private final AtomicInteger clientNodesOpened = new AtomicInteger();

    /** The way to the daemon of this test's database, as a command opening the queue gets it. */
    private DaemonLink link() {
        return new DaemonLink(dir.resolve("queue.db"));
    }

    /** Makes {@code engine} a daemon's and serves its database's socket, as {@code daemon.Daemon} does. */
    private static Optional<DaemonServer> serve(QueueEngine engine) {
        engine.becomeDaemon();
        return DaemonServer.start(engine.database().file());
    }

    /** Starts a daemon loop as {@code daemon.Daemon} runs it: wait for a request (or an hour), pass, answer. */
    private void startDaemon() {
        cluster = new FakeCluster(dir, "gpu1");
        QueueEngine engine = new QueueEngine(cluster.database, cluster.queueNodes, cluster.clock, cluster.settings, TickClient.quiet(), link());
        server = serve(engine).orElseThrow();
        loop = new Thread(() -> {
            while (!stop.get()) {
                if (!server.awaitRequest(Duration.ofHours(1))) {
                    continue;
                }
                long pass = server.passStarting();
                TickReport report = engine.tick(TickMode.FORCE);
                passes.incrementAndGet();
                server.tickEnded(pass, report);
            }
        }, "test-daemon");
        loop.setDaemon(true);
        loop.start();
    }

    /** A command's engine on the same database whose nodes must never be contacted. */
    private QueueEngine client() {
        NvidbHome home = new NvidbHome(dir.resolve("nvidb"), dir);
        NvidbConfig defaults = NvidbConfig.defaults(home);
        List<ServerConfig> servers = List.of(ServerConfig.ofHost("gpu1"));
        NvidbConfig config = new NvidbConfig(home, defaults.basic(), defaults.view(), servers, servers,
                QueueConfig.defaults(), null, List.of(), null);
        QueueNodes nodes = new QueueNodes(config, () -> {
            clientNodesOpened.incrementAndGet();
            return new NodeDirectory(server -> {
                throw new AssertionError("the command contacted a node itself");
            }, Map.of());
        }, "here");
        return new QueueEngine(Database.open(dir.resolve("queue.db")), nodes, cluster.clock, cluster.settings, TickClient.quiet(), link());
    }

    @AfterEach
    void stopDaemon() throws InterruptedException {
        stop.set(true);
        if (server != null) {
            server.close();
        }
        if (loop != null) {
            loop.join(5000);
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aCommandsTickIsTheDaemonsPassOverTheDaemonsNodes() {
        startDaemon();
        long id = cluster.submit("train");
        try (QueueEngine client = client()) {
            TickReport report = client.tick(TickMode.FORCE);

            assertTrue(report.ran());
            assertEquals(List.of("gpu1"), report.answered());
            assertEquals(List.of(id), report.placed());
            assertEquals(1, passes.get());
            assertEquals(JobState.RUNNING, cluster.job(id).state());
            assertEquals(0, clientNodesOpened.get(), "the command opened no node connection of its own");
        }
    }

    @Test
    void aReaderContentWithARecentTickDoesNotAskAtAll() {
        startDaemon();
        try (QueueEngine client = client()) {
            client.tick(TickMode.FORCE);
            TickReport read = client.tick(TickMode.IF_DUE);

            assertFalse(read.ran(), "the last tick is younger than tick_min_interval");
            assertEquals(1, passes.get());
            cluster.clock.advance(Duration.ofSeconds(QueueConfig.defaults().tickMinInterval() + 1));
            assertTrue(client.tick(TickMode.IF_DUE).ran());
            assertEquals(2, passes.get());
            assertEquals(0, clientNodesOpened.get());
        }
    }

    @Test
    void aWakeStartsAPassWithoutWaitingForIt() {
        startDaemon();
        long id = cluster.submit("train");
        try (QueueEngine client = client()) {
            assertTrue(client.wakeDaemon());
            awaitTrue(() -> cluster.job(id).state() == JobState.RUNNING, "the daemon placed the job");
            assertEquals(0, clientNodesOpened.get());
        }
    }

    @Test
    void manyCommandsAtOnceShareFewPasses() throws Exception {
        startDaemon();
        List<Thread> commands = new java.util.ArrayList<>();
        AtomicInteger answered = new AtomicInteger();
        for (int i = 0; i < 8; i++) {
            Thread command = new Thread(() -> {
                try (QueueEngine client = client()) {
                    if (client.tick(TickMode.FORCE).answered().equals(List.of("gpu1"))) {
                        answered.incrementAndGet();
                    }
                }
            });
            commands.add(command);
            command.start();
        }
        for (Thread command : commands) {
            command.join(30_000);
        }
        assertEquals(8, answered.get());
        assertTrue(passes.get() <= 8, "a request that arrives during a pass waits for the next one, shared");
        assertEquals(0, clientNodesOpened.get());
    }

    @Test
    void withoutADaemonTheCommandTicksItself() {
        cluster = new FakeCluster(dir, "gpu1");
        QueueEngine direct = new QueueEngine(Database.open(dir.resolve("queue.db")), cluster.queueNodes,
                cluster.clock, cluster.settings, TickClient.quiet(), link());
        try (direct) {
            assertFalse(direct.daemonPresent());
            assertFalse(direct.wakeDaemon());
            assertEquals(List.of("gpu1"), direct.tick(TickMode.FORCE).answered());
        }
    }

    @Test
    void aSocketLeftByAKilledDaemonCostsNothingAndIsReplacedByTheNextDaemon() throws Exception {
        cluster = new FakeCluster(dir, "gpu1");
        Path socket = DaemonWire.socket(dir.resolve("queue.db"));
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(socket)); // bound, then closed without removing the file
        }
        assertTrue(Files.exists(socket));
        QueueEngine direct = new QueueEngine(Database.open(dir.resolve("queue.db")), cluster.queueNodes,
                cluster.clock, cluster.settings, TickClient.quiet(), link());
        try (direct) {
            assertTrue(direct.daemonPresent());
            assertFalse(direct.wakeDaemon(), "nobody listens");
            assertEquals(List.of("gpu1"), direct.tick(TickMode.FORCE).answered(), "it ticked itself");
            Optional<DaemonServer> next = serve(direct);
            assertTrue(next.isPresent(), "the stale socket was replaced");
            next.get().close();
            assertFalse(Files.exists(socket), "a daemon that stops removes its socket");
        }
    }

    @Test
    void oneDaemonServesADatabaseAndItsSocketIsTheOwnersOnly() throws Exception {
        startDaemon();
        Path socket = DaemonWire.socket(dir.resolve("queue.db"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
        try (QueueEngine second = client(); QueueEngine client = client()) {
            assertTrue(serve(second).isEmpty(), "a second daemon does not take over the socket");
            assertFalse(second.daemonPresent(), "and ticks itself rather than through the first");
            assertTrue(client.wakeDaemon(), "the first still answers");
        }
    }

    @Test
    void aDaemonThatDoesNotAnswerCostsTheCommandOnlyItsTimeout() throws Exception {
        cluster = new FakeCluster(dir, "gpu1");
        QueueEngine engine = new QueueEngine(cluster.database, cluster.queueNodes, cluster.clock, cluster.settings, TickClient.quiet(), link());
        server = serve(engine).orElseThrow(); // serving, but no loop runs its passes
        long started = System.nanoTime();
        Optional<TickReport> report = new DaemonLink(dir.resolve("queue.db")).sync(false, Duration.ofMillis(300));
        assertTrue(report.isEmpty());
        assertTrue(System.nanoTime() - started < Duration.ofSeconds(10).toNanos());
    }

    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            try {
                Thread.sleep(20); // a poll with a deadline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
