package dev.nvidb.monitor;

import dev.nvidb.agent.AgentReplyParser;
import dev.nvidb.agent.AgentScript;
import dev.nvidb.error.NvidbException;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
import dev.nvidb.node.CommandResult;
import dev.nvidb.node.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Probes nodes with the agent, all at once: each node gets its own thread and its own
 * timeout, so a hung node costs only its own answer. One exec per node per probe.
 */
public final class Prober {

    private final AgentScript script;
    private final Duration timeout;
    private final String requestJson;

    /**
     * @param script  the agent to ship
     * @param timeout how long one node may take to answer, connection included
     * @param jobRoot where the node measures free disk ({@code ~} is the node's home)
     */
    public Prober(AgentScript script, Duration timeout, String jobRoot) {
        this.script = script;
        this.timeout = timeout;
        this.requestJson = "{\"job_root\": \"" + jobRoot.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
    }

    /** Probes every node in parallel; the result list is in the order of {@code nodes}. */
    public List<ProbeResult> probeAll(List<Node> nodes) {
        if (nodes.size() == 1) {
            return List.of(probe(nodes.get(0)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(nodes.size(), runnable -> {
            Thread thread = new Thread(runnable, "probe");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<ProbeResult>> futures = new ArrayList<>();
            for (Node node : nodes) {
                futures.add(pool.submit(() -> probe(node)));
            }
            List<ProbeResult> results = new ArrayList<>();
            for (int i = 0; i < nodes.size(); i++) {
                results.add(await(nodes.get(i), futures.get(i)));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Probes one node; failures become a {@link ProbeResult} with the reason, never an exception. */
    public ProbeResult probe(Node node) {
        long start = System.nanoTime();
        try {
            CommandResult result = node.shell().run(script.onceCommand(), script.onceInput(requestJson), timeout);
            NodeSnapshot snapshot = AgentReplyParser.parse(node.name(), result.stdout(), result.stderr());
            return ProbeResult.answered(node.name(), node.address(), snapshot, since(start));
        } catch (NvidbException e) {
            return ProbeResult.failed(node.name(), node.address(), e.getMessage(), since(start));
        }
    }

    private ProbeResult await(Node node, Future<ProbeResult> future) {
        // The shell enforces its own timeout; this bound only guards against a transport bug.
        long graceMillis = timeout.toMillis() + 5_000;
        try {
            return future.get(graceMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            return ProbeResult.failed(node.name(), node.address(),
                    node.name() + ": no answer within " + timeout.toSeconds() + " s", timeout);
        } catch (ExecutionException e) {
            return ProbeResult.failed(node.name(), node.address(),
                    node.name() + ": probe failed: " + e.getCause(), timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ProbeResult.failed(node.name(), node.address(), node.name() + ": interrupted", timeout);
        }
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }
}
