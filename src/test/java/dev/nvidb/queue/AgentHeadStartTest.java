package dev.nvidb.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.config.QueueConfig;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.daemon.DaemonLink;
import dev.nvidb.engine.QueueEngine;
import dev.nvidb.engine.QueueNodes;
import dev.nvidb.engine.TickSettings;
import dev.nvidb.node.AgentPipe;
import dev.nvidb.node.CommandResult;
import dev.nvidb.node.NodeDirectory;
import dev.nvidb.node.NodeShell;
import dev.nvidb.store.Database;
import dev.nvidb.store.NodeStore;
import dev.nvidb.testing.FakeClock;
import dev.nvidb.testing.HomeSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agents a waiting command starts before it has parsed its line: for the nodes its first
 * tick probes and no others, with the database only read, and taken over by the command's
 * queue instead of started twice.
 */
class AgentHeadStartTest {

    @TempDir
    Path home;

    /** Counts the agents started on each node; an agent never answers (only the starts matter here). */
    private final Map<String, Integer> starts = new ConcurrentHashMap<>();

    @Test
    void startsTheAgentsOfTheNodesTheTickProbesAndReadsTheDatabaseWithoutChangingIt() throws Exception {
        Path file = home.resolve("nvidb/queue.db");
        FakeClock clock = FakeClock.atDefaultStart();
        try (Database database = Database.open(file)) {
            NodeStore nodes = new NodeStore(database);
            nodes.ignore("b", clock.instant());
            nodes.recordFailure("c", "no route to host", clock.instant(), failures -> Duration.ofMinutes(5));
            nodes.recordFailure("d", "no route to host", clock.instant().minus(Duration.ofHours(1)),
                    failures -> Duration.ofMinutes(5));
        }
        HomeSnapshot before = HomeSnapshot.of(home, null);   // the database by its bytes

        try (AgentHeadStart early = AgentHeadStart.begin(file, new DaemonLink(file), config("a", "b", "c", "d"), this::directory, "here",
                clock).orElseThrow()) {
            awaitStarts(2);
            assertEquals(Map.of("a", 1, "d", 1), Map.copyOf(starts), "a (never failed) and d (back-off over): not the"
                    + " ignored b nor c, which backs off");
            assertEquals(file.toAbsolutePath(), early.database());
        }
        assertEquals("", before.differences(HomeSnapshot.of(home, null)),
                "nothing changed, no file created beside the database (-wal, -shm)");
    }

    @Test
    void withoutADatabaseEveryNodeStartsAndNoFileIsCreated() throws Exception {
        Path file = home.resolve("nvidb/queue.db");
        try (AgentHeadStart early = AgentHeadStart.begin(file, new DaemonLink(file), config("a", "b"), this::directory, "here",
                Clock.systemUTC()).orElseThrow()) {
            awaitStarts(2);
            assertEquals(Map.of("a", 1, "b", 1), Map.copyOf(starts));
        }
        assertFalse(Files.exists(home.resolve("nvidb")), "nothing created: the line may still turn out to be wrong");
    }

    @Test
    void nothingStartsWhenADaemonServesTheDatabase() throws Exception {
        Path file = home.resolve("nvidb/queue.db");
        Files.createDirectories(file.getParent());
        Files.createFile(Path.of(file + ".daemon"));   // the daemon's socket, as DaemonLink looks for it
        assertTrue(AgentHeadStart.begin(file, new DaemonLink(file), config("a"), this::directory, "here", Clock.systemUTC()).isEmpty());
        Thread.sleep(100);
        assertTrue(starts.isEmpty(), "the daemon's pass asks its own agents");
    }

    @Test
    void theCommandsQueueTakesTheAgentsOverInsteadOfStartingThemAgain() throws Exception {
        Path file = home.resolve("nvidb/queue.db");
        NvidbConfig config = config("a", "b");
        AgentHeadStart early = AgentHeadStart.begin(file, new DaemonLink(file), config, this::directory, "here", Clock.systemUTC())
                .orElseThrow();
        awaitStarts(2);
        QueueConfig settings = config.queue();
        try (Queue queue = new Queue(new QueueEngine(Database.open(file), new QueueNodes(config, this::directory, "here"),
                Clock.systemUTC(), new TickSettings(settings, AgentScript.bundled(), Duration.ofSeconds(8))),
                Duration.ofSeconds(8), Pause.sleeping())) {
            try (Ticking.AgentScope scope = queue.ticking().keepAgents(Optional.of(early))) {
                Thread.sleep(200);   // a second start, if any, would be on its way
                assertEquals(Map.of("a", 1, "b", 1), Map.copyOf(starts), "each node's agent started once");
                assertEquals(2, early.residents().running());
            }
            assertEquals(0, early.residents().running(), "closing the scope stops the agents it took");
        }
    }

    @Test
    void aHeadStartForAnotherDatabaseIsClosedAndTheQueueStartsItsOwn() throws Exception {
        NvidbConfig config = config("a");
        AgentHeadStart other = AgentHeadStart.begin(home.resolve("other.db"), new DaemonLink(home.resolve("other.db")), config, this::directory, "here",
                Clock.systemUTC()).orElseThrow();
        awaitStarts(1);
        Path file = home.resolve("nvidb/queue.db");
        try (Queue queue = new Queue(new QueueEngine(Database.open(file), new QueueNodes(config, this::directory, "here"),
                Clock.systemUTC(), new TickSettings(config.queue(), AgentScript.bundled(), Duration.ofSeconds(8))),
                Duration.ofSeconds(8), Pause.sleeping());
             Ticking.AgentScope scope = queue.ticking().keepAgents(Optional.of(other))) {
            assertEquals(0, other.residents().running(), "the other database's agents were stopped");
            awaitStarts(2);
            assertEquals(2, starts.get("a"), "this queue started its own");
        }
    }

    private NvidbConfig config(String... names) {
        NvidbHome nvidbHome = new NvidbHome(home.resolve("nvidb"), home);
        NvidbConfig defaults = NvidbConfig.defaults(nvidbHome);
        List<ServerConfig> servers = Stream.of(names).map(ServerConfig::ofHost).toList();
        return new NvidbConfig(nvidbHome, defaults.basic(), defaults.view(), servers, servers, QueueConfig.defaults(),
                null, List.of(), null);
    }

    private NodeDirectory directory() {
        return new NodeDirectory(server -> new CountingShell(server.name()), Map.of());
    }

    private void awaitStarts(int total) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (starts.values().stream().mapToInt(Integer::intValue).sum() < total && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(total, starts.values().stream().mapToInt(Integer::intValue).sum(), "agents started: " + starts);
    }

    /** A node whose agents start (and are counted) but never answer. */
    private final class CountingShell implements NodeShell {

        private final String name;

        CountingShell(String name) {
            this.name = name;
        }

        @Override
        public CommandResult run(String command, byte[] stdin, Duration timeout) {
            throw new AssertionError("no one-shot exec expected on " + name);
        }

        @Override
        public String address() {
            return name;
        }

        @Override
        public Optional<AgentPipe> start(String command) {
            starts.merge(name, 1, Integer::sum);
            List<InputStream> opened = new ArrayList<>();
            return Optional.of(new AgentPipe() {
                private final InputStream silent = new InputStream() {
                    @Override
                    public synchronized int read() throws java.io.IOException {
                        try {
                            wait();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return -1;
                    }
                };

                @Override
                public OutputStream stdin() {
                    return new ByteArrayOutputStream();
                }

                @Override
                public InputStream stdout() {
                    opened.add(silent);
                    return silent;
                }

                @Override
                public String stderrTail() {
                    return "";
                }

                @Override
                public void close() {
                    synchronized (silent) {
                        silent.notifyAll();
                    }
                }
            });
        }
    }
}
