package dev.nvidb.engine;

import dev.nvidb.agent.AgentReplyParser;
import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.AgentScript;
import dev.nvidb.agent.ProbeReply;
import dev.nvidb.error.NvidbException;
import dev.nvidb.node.CommandResult;
import dev.nvidb.node.Fanout;
import dev.nvidb.node.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
        List<Node> nodes = new ArrayList<>(requests.keySet());
        List<NodeAnswer> answers = Fanout.each(nodes, node -> exec(node, requests.get(node)), timeout.plusSeconds(5),
                (node, why) -> new NodeAnswer(node.name(), null, null, why, timeout));
        Map<String, NodeAnswer> byName = new LinkedHashMap<>();
        answers.forEach(answer -> byName.put(answer.node(), answer));
        return byName;
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

    private static Duration since(long start) {
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
