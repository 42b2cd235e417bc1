package dev.nvidb.engine;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.config.QueueConfig;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import dev.nvidb.model.TickReport;
import dev.nvidb.node.NodeDirectory;
import dev.nvidb.store.Database;
import dev.nvidb.store.Expected;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.JobTransitions;
import dev.nvidb.testing.FakeClock;
import dev.nvidb.testing.FakeNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A queue over {@link FakeNode}s with a {@link FakeClock}: a real SQLite file and the real
 * tick, nothing else real. Each node has two 80 GB GPUs unless the test adds others.
 */
final class FakeCluster implements AutoCloseable {

    static final Duration NODE_TIMEOUT = Duration.ofSeconds(8);

    final FakeClock clock = FakeClock.atDefaultStart();
    final Map<String, FakeNode> nodes = new LinkedHashMap<>();
    final Database database;
    final QueueNodes queueNodes;
    final TickSettings settings;

    FakeCluster(Path dir, UnaryOperator<QueueConfig> tuning, String... names) {
        for (String name : names) {
            nodes.put(name, new FakeNode(name, clock).gpu("NVIDIA H100 80GB HBM3", 81559)
                    .gpu("NVIDIA H100 80GB HBM3", 81559));
        }
        NvidbHome home = new NvidbHome(dir.resolve("nvidb"), dir);
        NvidbConfig defaults = NvidbConfig.defaults(home);
        QueueConfig queue = tuning.apply(QueueConfig.defaults());
        List<ServerConfig> servers = nodes.keySet().stream().map(ServerConfig::ofHost).toList();
        NvidbConfig config = new NvidbConfig(home, defaults.basic(), defaults.view(), servers, servers, queue, null,
                List.of(), null);
        NodeDirectory directory = new NodeDirectory(server -> nodes.get(server.name()), Map.of());
        this.queueNodes = new QueueNodes(config, () -> directory, "here");
        this.settings = new TickSettings(queue, AgentScript.bundled(), NODE_TIMEOUT);
        this.database = Database.open(dir.resolve("queue.db"));
    }

    FakeCluster(Path dir, String... names) {
        this(dir, UnaryOperator.identity(), names);
    }

    FakeNode node(String name) {
        return nodes.get(name);
    }

    /** One pass of the tick, as the lease holder runs it. */
    TickReport tick() {
        return new Tick(database, queueNodes, settings, clock).run();
    }

    long submit(String name, int gpus, long vramMb, Long timeoutSeconds, int retries) {
        JobSpec spec = new JobSpec(name, "python train.py", gpus, vramMb, null, null, Map.of(), List.of(),
                timeoutSeconds, retries, List.of(), "tester@here");
        return new JobStore(database).insert(spec, 0, null, clock.instant());
    }

    /** A job with a run policy ({@code --exclusive}, {@code --retry-oom}). */
    long submit(String name, int gpus, long vramMb, dev.nvidb.model.RunPolicy policy) {
        return submit(name, gpus, vramMb, 0, policy);
    }

    /** A job with {@code --retries} and a run policy. */
    long submit(String name, int gpus, long vramMb, int retries, dev.nvidb.model.RunPolicy policy) {
        JobSpec spec = new JobSpec(name, "python train.py", gpus, vramMb, null, null, Map.of(), List.of(),
                null, retries, List.of(), "tester@here", dev.nvidb.model.Sweep.NONE, policy);
        return new JobStore(database).insert(spec, 0, null, clock.instant());
    }

    long submit(String name) {
        return submit(name, 1, 1000, null, 0);
    }

    Job job(long id) {
        return new JobStore(database).getJob(id).job();
    }

    /** A person's cancel, as the command does it: a compare-and-set on what they just read. */
    boolean cancel(long id) {
        return new JobTransitions(database).cancel(id, Expected.of(job(id)), "cancelled by request", clock.instant());
    }

    /** A person's requeue, as the command does it. */
    boolean requeue(long id) {
        return new JobTransitions(database).requeue(id, Expected.of(job(id)), "requeued by request", clock.instant());
    }

    @Override
    public void close() {
        database.close();
    }
}
