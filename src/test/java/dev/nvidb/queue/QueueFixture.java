package dev.nvidb.queue;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.config.ConfigLoader;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.engine.QueueEngine;
import dev.nvidb.engine.QueueNodes;
import dev.nvidb.engine.TickSettings;
import dev.nvidb.node.NodeDirectory;
import dev.nvidb.store.Database;
import dev.nvidb.testing.FakeClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A queue in a temporary home with one local node ({@code here}), a clock the test sets and a
 * pause the test scripts: the use cases' loops run without sleeping.
 */
final class QueueFixture implements AutoCloseable {

    /** Records every pause, advances the clock by it, and runs the test's step for that round. */
    static final class ScriptedPause implements Pause {

        final List<Duration> pauses = new ArrayList<>();
        private final FakeClock clock;
        private Runnable step = () -> { };

        ScriptedPause(FakeClock clock) {
            this.clock = clock;
        }

        /** What happens during each pause (after the clock has moved), e.g. another client's change. */
        void during(Runnable step) {
            this.step = step;
        }

        @Override
        public void pause(Duration duration) {
            pauses.add(duration);
            clock.advance(duration);
            step.run();
        }
    }

    final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
    final ScriptedPause pause = new ScriptedPause(clock);
    final Queue queue;

    QueueFixture(Path home) throws IOException {
        Path nvidbHome = home.resolve(".nvidb");
        Files.createDirectories(nvidbHome);
        Files.writeString(nvidbHome.resolve("queue.yml"), "queue:\n  local_node_name: here\n");
        Map<String, String> env = Map.of("HOME", home.toString(), "NVIDB_HOME", nvidbHome.toString());
        NvidbConfig config = new ConfigLoader(NvidbHome.fromEnvironment(env, home.toString()), env).load();
        QueueNodes nodes = new QueueNodes(config, () -> new NodeDirectory(server -> {
            throw new AssertionError("no remote node in this fixture");
        }, Map.of()), "here");
        QueueEngine engine = new QueueEngine(Database.open(nvidbHome.resolve("queue.db")), nodes, clock,
                new TickSettings(config.queue(), AgentScript.bundled(), Duration.ofSeconds(10)));
        queue = new Queue(engine, Duration.ofSeconds(10), pause);
    }

    /** Submits a CPU-only job running {@code true}; returns its id. */
    long submit(String name) {
        return submit(name, "true");
    }

    /** Submits a CPU-only job running {@code command}; returns its id. */
    long submit(String name, String command) {
        return queue.submitting().submit(new SubmitRequest(name, command, 0, 0, null, null, Map.of(), 0, List.of(),
                List.of(), null, 0, List.of(), null, "tester@here"));
    }

    @Override
    public void close() {
        queue.close();
    }
}
