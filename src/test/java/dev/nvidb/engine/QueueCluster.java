package dev.nvidb.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Three SSH hosts ({@code node-a}, {@code node-b}, {@code node-c}) with two fake 80 GB GPUs
 * each, for the queue's concurrency and crash tests; one node can be made slow (every NVML call
 * blocks) so that a tick holds its lease for a while. It also reads what the queue left on the
 * nodes: the attempt directories under each host's job root.
 */
final class QueueCluster implements AutoCloseable {

    static final List<String> NODES = List.of("node-a", "node-b", "node-c");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SshHarness harness = new SshHarness();

    QueueCluster() {
        NODES.forEach(harness::addHost);
        NODES.forEach(node -> slow(node, 0));
    }

    TestHost host(String node) {
        return harness.host(node);
    }

    /** Makes every NVML call on {@code node} block {@code hangMs} first (0: answer at once). */
    void slow(String node, long hangMs) {
        FakeGpuState state = FakeGpuState.create()
                .gpu(0, "NVIDIA H100 80GB HBM3", 81559).used(0, 0).util(0, 0)
                .gpu(1, "NVIDIA H100 80GB HBM3", 81559).used(1, 0).util(1, 0);
        (hangMs > 0 ? state.hangMs(hangMs) : state).writeTo(host(node).gpuStateFile());
    }

    /** SSH connections opened to each node so far. */
    Map<String, Integer> sessions() {
        return NODES.stream().collect(Collectors.toMap(node -> node, node -> host(node).sessionsOpened()));
    }

    /**
     * A client home laid out for these hosts: {@code ~/.ssh}, {@code $NVIDB_HOME/config.yml}
     * (short SSH timeouts) and {@code queue.yml} with the three nodes and {@code queueSettings}
     * (YAML lines under {@code queue:}, e.g. {@code "lease_seconds: 5"}).
     */
    QueueClient client(Path home, String jobRoot, String... queueSettings) {
        harness.writeClientHome(home);
        Path nvidbHome = home.resolve(".nvidb");
        try {
            Files.createDirectories(nvidbHome);
            Files.writeString(nvidbHome.resolve("config.yml"),
                    "basic:\n  include_local: false\n  connect_timeout: 2\n  command_timeout: 30\n");
            StringBuilder queue = new StringBuilder("servers:\n");
            NODES.forEach(node -> queue.append("  - hostname: ").append(node).append('\n'));
            queue.append("queue:\n  include_local: false\n  tick_min_interval: 0\n  kill_grace_seconds: 2\n")
                    .append("  job_root: \"").append(jobRoot).append("\"\n");
            for (String setting : queueSettings) {
                queue.append("  ").append(setting).append('\n');
            }
            Files.writeString(nvidbHome.resolve("queue.yml"), queue.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new QueueClient(home, nvidbHome);
    }

    /** One attempt directory of a job on a node, as the agent left it. */
    record AttemptDir(String node, long jobId, int attempt, Path dir) {

        boolean hasPidFile() {
            return Files.isRegularFile(dir.resolve("pid"));
        }

        boolean hasExitFile() {
            return Files.isRegularFile(dir.resolve("exit"));
        }

        /** The wrapper's pid from the agent's pid file, or -1 when there is none (yet). */
        long wrapperPid() {
            try {
                JsonNode identity = JSON.readTree(Files.readString(dir.resolve("pid")));
                return identity.get("pid").asLong();
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        }
    }

    /**
     * Every attempt directory under {@code jobRoot} (such as {@code ~/.nvidb/jobs}) on every
     * node: a directory {@code <id>/<attempt>} at any depth below it, so that the layout
     * between the root and the job's directory (e.g. a folder per queue) does not matter.
     */
    List<AttemptDir> attemptDirs(String jobRoot) {
        List<AttemptDir> found = new ArrayList<>();
        for (String node : NODES) {
            Path root = host(node).home().resolve(jobRoot.replaceFirst("^~/", ""));
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> dirs = Files.walk(root)) {
                dirs.filter(Files::isDirectory).filter(dir -> !dir.equals(root) && !dir.getParent().equals(root))
                        .filter(dir -> isNumber(dir) && isNumber(dir.getParent()))
                        .sorted()
                        .forEach(dir -> found.add(new AttemptDir(node, Long.parseLong(dir.getParent().getFileName()
                                .toString()), Integer.parseInt(dir.getFileName().toString()), dir)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return found;
    }

    private static boolean isNumber(Path dir) {
        return dir.getFileName().toString().matches("\\d+");
    }

    /** Kills what jobs left running (their wrappers run in sessions of their own, outside the hosts' reach). */
    void killLeftovers(String jobRoot) {
        for (AttemptDir attempt : attemptDirs(jobRoot)) {
            if (!attempt.hasExitFile()) {
                ProcessHandle.of(attempt.wrapperPid()).ifPresent(wrapper -> {
                    wrapper.descendants().forEach(ProcessHandle::destroyForcibly);
                    wrapper.destroyForcibly();
                });
            }
        }
    }

    @Override
    public void close() {
        harness.close();
    }
}
