package dev.nvidb.engine;

import dev.nvidb.agent.AgentReplyParser;
import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.AgentScript;
import dev.nvidb.agent.ProbeReply;
import dev.nvidb.error.NvidbException;
import dev.nvidb.node.CommandResult;
import dev.nvidb.node.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One agent exec on each of several nodes at once, each with its own request and timeout.
 * A node that fails becomes a {@link NodeAnswer} with the reason; nothing here throws.
 */
final class ProbeRound {

    private final AgentScript script;
    private final Duration timeout;

    ProbeRound(AgentScript script, Duration timeout) {
        this.script = script;
        this.timeout = timeout;
    }

    /** Runs every request; the answers are keyed by node name, in the order given. */
    Map<String, NodeAnswer> run(Map<Node, AgentRequest> requests) {
        Map<String, NodeAnswer> answers = new LinkedHashMap<>();
        if (requests.isEmpty()) {
            return answers;
        }
        ExecutorService pool = Executors.newFixedThreadPool(requests.size(), runnable -> {
            Thread thread = new Thread(runnable, "tick-node");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Map.Entry<Node, Future<NodeAnswer>>> futures = new ArrayList<>();
            requests.forEach((node, request) -> futures.add(Map.entry(node, pool.submit(() -> exec(node, request)))));
            for (Map.Entry<Node, Future<NodeAnswer>> entry : futures) {
                answers.put(entry.getKey().name(), await(entry.getKey(), entry.getValue()));
            }
            return answers;
        } finally {
            pool.shutdownNow();
        }
    }

    private NodeAnswer exec(Node node, AgentRequest request) {
        long start = System.nanoTime();
        try {
            CommandResult result = node.shell().run(script.onceCommand(), script.onceInput(request.toJson()), timeout);
            ProbeReply reply = AgentReplyParser.parseReply(node.name(), result.stdout(), result.stderr());
            return new NodeAnswer(node.name(), reply, result.stdoutText(), null, since(start));
        } catch (NvidbException e) {
            return new NodeAnswer(node.name(), null, null, e.getMessage(), since(start));
        }
    }

    private NodeAnswer await(Node node, Future<NodeAnswer> future) {
        try {
            // The shell enforces the timeout itself; this bound only guards against a transport bug.
            return future.get(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            return new NodeAnswer(node.name(), null, null, node.name() + ": no answer within " + timeout.toSeconds() + " s",
                    timeout);
        } catch (ExecutionException e) {
            return new NodeAnswer(node.name(), null, null, node.name() + ": " + e.getCause(), timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new NodeAnswer(node.name(), null, null, node.name() + ": interrupted", timeout);
        }
    }

    private static Duration since(long start) {
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
