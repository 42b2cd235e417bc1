package dev.nvidb.node;

import dev.nvidb.agent.AgentReplyParser;
import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.AgentScript;
import dev.nvidb.agent.ProbeReply;
import dev.nvidb.error.NvidbException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The one way to talk to nodes: one agent exec on each of several nodes at once, each with its
 * own request and timeout (the monitor's probe, the tick's probe, launch and kill rounds, log
 * reads). A node that fails becomes a {@link NodeAnswer} with the reason; nothing here throws.
 */
public final class ProbeRound {

    private final AgentScript script;
    private final Duration timeout;
    private final ResidentAgents residents;

    /**
     * @param script  the agent to ship
     * @param timeout how long one node may take to answer, connection included
     */
    public ProbeRound(AgentScript script, Duration timeout) {
        this(script, timeout, null);
    }

    /** As above, asking each node's resident agent where {@code residents} keeps one (null: none). */
    public ProbeRound(AgentScript script, Duration timeout, ResidentAgents residents) {
        this.script = script;
        this.timeout = timeout;
        this.residents = residents;
    }

    /** Runs every request in parallel; the answers are keyed by node name, in the order given. */
    public Map<String, NodeAnswer> run(Map<Node, AgentRequest> requests) {
        Map<String, NodeAnswer> byName = new LinkedHashMap<>();
        each(new ArrayList<>(requests.keySet()), requests::get).forEach(answer -> byName.put(answer.node(), answer));
        return byName;
    }

    /** Sends each node its request, all in parallel; the answers are in the order of {@code nodes}. */
    public List<NodeAnswer> each(List<Node> nodes, Function<Node, AgentRequest> requests) {
        return Fanout.each(nodes, node -> ask(node, requests.apply(node)), timeout.plusSeconds(5),
                (node, why) -> NodeAnswer.failed(node.name(), why, timeout));
    }

    /** Sends one request to one node, on this thread. */
    public NodeAnswer ask(Node node, AgentRequest request) {
        long start = System.nanoTime();
        try {
            if (residents != null) {
                java.util.Optional<byte[]> line = residents.ask(node, request.toJson(), timeout);
                if (line.isPresent()) {
                    ProbeReply reply = AgentReplyParser.parseReply(node.name(), line.get(), new byte[0]);
                    return new NodeAnswer(node.name(), reply, new String(line.get(),
                            java.nio.charset.StandardCharsets.UTF_8), null, since(start));
                }
            }
            CommandResult result = node.shell().run(script.onceCommand(), script.onceInput(request.toJson()), timeout);
            ProbeReply reply = AgentReplyParser.parseReply(node.name(), result.stdout(), result.stderr());
            return new NodeAnswer(node.name(), reply, result.stdoutText(), null, since(start));
        } catch (NvidbException e) {
            return NodeAnswer.failed(node.name(), e.getMessage(), since(start));
        }
    }

    private static Duration since(long start) {
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
