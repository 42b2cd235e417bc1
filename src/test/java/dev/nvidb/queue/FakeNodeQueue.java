package dev.nvidb.queue;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.config.QueueConfig;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.engine.QueueEngine;
import dev.nvidb.engine.QueueNodes;
import dev.nvidb.engine.TickSettings;
import dev.nvidb.node.NodeDirectory;
import dev.nvidb.store.Database;
import dev.nvidb.testing.FakeClock;
import dev.nvidb.testing.FakeNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A {@link Queue} over an existing (or new) database file with one {@link FakeNode}
 * ({@code gpu1}, two 80 GB GPUs) and a {@link FakeClock}: the use cases and the real tick,
 * without SSH or sleeps.
 */
public final class FakeNodeQueue implements AutoCloseable {

    public final FakeClock clock = FakeClock.atDefaultStart();
    public final FakeNode node = new FakeNode("gpu1", clock).gpu("NVIDIA H100 80GB HBM3", 81559)
            .gpu("NVIDIA H100 80GB HBM3", 81559);
    public final Queue queue;

    public FakeNodeQueue(Path home, Path database, UnaryOperator<QueueConfig> tuning) {
        NvidbHome nvidbHome = new NvidbHome(home.resolve("nvidb"), home);
        NvidbConfig defaults = NvidbConfig.defaults(nvidbHome);
        QueueConfig settings = tuning.apply(QueueConfig.defaults());
        List<ServerConfig> servers = List.of(ServerConfig.ofHost("gpu1"));
        NvidbConfig config = new NvidbConfig(nvidbHome, defaults.basic(), defaults.view(), servers, servers, settings,
                null, List.of(), null);
        NodeDirectory directory = new NodeDirectory(server -> node, Map.of());
        QueueEngine engine = new QueueEngine(Database.open(database), new QueueNodes(config, () -> directory, "here"),
                clock, new TickSettings(settings, AgentScript.bundled(), Duration.ofSeconds(8)));
        queue = new Queue(engine, Duration.ofSeconds(8), Pause.sleeping());
    }

    public FakeNodeQueue(Path home, Path database) {
        this(home, database, UnaryOperator.identity());
    }

    /** Submits a one-GPU job; returns its id. */
    public long submit(String name) {
        return queue.submitting().submit(new SubmitRequest(name, "python train.py", 1, 1000, null, null, Map.of(), 0,
                List.of(), List.of(), null, 0, List.of(), null, "tester@here"));
    }

    @Override
    public void close() {
        queue.close();
    }
}
