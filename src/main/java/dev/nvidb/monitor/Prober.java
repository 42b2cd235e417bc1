package dev.nvidb.monitor;

import dev.nvidb.agent.AgentReplyParser;
import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.AgentScript;
import dev.nvidb.error.NvidbException;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
import dev.nvidb.node.CommandResult;
import dev.nvidb.node.Fanout;
import dev.nvidb.node.Node;
import java.time.Duration;
import java.util.List;

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
        this.requestJson = AgentRequest.probe(jobRoot).toJson();
    }

    /** Probes every node in parallel; the result list is in the order of {@code nodes}. */
    public List<ProbeResult> probeAll(List<Node> nodes) {
        return Fanout.each(nodes, this::probe, timeout.plusSeconds(5),
                (node, why) -> ProbeResult.failed(node.name(), node.address(), why, timeout));
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

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }
}
