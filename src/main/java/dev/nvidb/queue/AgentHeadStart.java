package dev.nvidb.queue;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.config.FileTrust;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.engine.QueueNodes;
import dev.nvidb.engine.WarmPath;
import dev.nvidb.node.NodeDirectory;
import dev.nvidb.node.ResidentAgents;
import dev.nvidb.store.DatabaseInspection;
import dev.nvidb.store.NodeRecord;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * The agents of a waiting command's first tick, started before the command has parsed its line
 * or opened its queue: the SSH connections, python3 starts and script transfers that tick needs
 * overlap the JVM loading the command's classes. It reads the database without changing it
 * (a line that turns out to be wrong has changed nothing), starts the agents of the nodes the
 * tick will probe (not ignored, not backing off), and nothing when a daemon or submit ticker
 * serves the database (the tick is then theirs). Hand it to {@link Ticking#keepAgents(AgentHeadStart)},
 * or close it.
 */
public final class AgentHeadStart implements AutoCloseable {

    private final Path database;
    private final ResidentAgents residents;

    private AgentHeadStart(Path database, ResidentAgents residents) {
        this.database = database;
        this.residents = residents;
    }

    /**
     * Starts the agents of the queue at {@code file} with nodes from the configuration
     * {@code config} loads, as {@link Queue#open} would find them; empty when {@code daemon} says a daemon serves
     * that database or {@code config} gives null (these commands go elsewhere). The database's
     * node rows are read on a second thread while {@code config} runs.
     */
    public static Optional<AgentHeadStart> begin(Path file, WarmPath daemon, Supplier<NvidbConfig> config,
                                                 Supplier<NodeDirectory> directory, String localName, Clock clock) {
        if (daemon.present()) {
            return Optional.empty();
        }
        FileTrust.requireTrustedDatabase(file);
        FutureTask<List<NodeRecord>> rows = new FutureTask<>(() -> DatabaseInspection.nodes(file));
        Thread reader = new Thread(rows, "head-start-rows");
        reader.setDaemon(true);
        reader.start();
        NvidbConfig loaded = config.get();
        if (loaded == null) {
            return Optional.empty();
        }
        QueueNodes nodes = new QueueNodes(loaded, directory, localName);
        List<NodeRecord> records;
        try {
            records = rows.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure
                    : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        // Nothing left behind on a node by a line that may still turn out to be wrong.
        ResidentAgents residents = new ResidentAgents(AgentScript.bundled().withoutKeeping());
        residents.warm(nodes.probedAt(records, clock.instant(), Duration.ofSeconds(loaded.queue().backoffMaxSeconds())));
        return Optional.of(new AgentHeadStart(file.toAbsolutePath(), residents));
    }

    /** As above with a configuration already loaded. */
    public static Optional<AgentHeadStart> begin(Path file, WarmPath daemon, NvidbConfig config,
                                                 Supplier<NodeDirectory> directory, String localName, Clock clock) {
        return begin(file, daemon, () -> config, directory, localName, clock);
    }

    /** The database these agents were started for. */
    public Path database() {
        return database;
    }

    ResidentAgents residents() {
        return residents;
    }

    /** Stops the agents (a command that never took them). */
    @Override
    public void close() {
        residents.close();
    }
}
