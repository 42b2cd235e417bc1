package dev.nvidb.monitor;

import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.AgentScript;
import dev.nvidb.model.ProbeResult;
import dev.nvidb.node.Node;
import dev.nvidb.node.NodeAnswer;
import dev.nvidb.node.ProbeRound;
import dev.nvidb.node.ResidentAgents;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Probes nodes for the monitor through the same {@link ProbeRound} the queue's tick uses: each
 * node gets its own thread and its own timeout, so a hung node costs only its own answer. One
 * exec per node per probe.
 */
public final class Prober {

    private final ProbeRound round;
    private final AgentRequest request;

    /**
     * @param script  the agent to ship
     * @param timeout how long one node may take to answer, connection included
     * @param jobRoot where the node measures free disk ({@code ~} is the node's home)
     */
    public Prober(AgentScript script, Duration timeout, String jobRoot) {
        this(script, timeout, jobRoot, null);
    }

    /**
     * As above, asking each node's resident agent where {@code residents} keeps one (null: one
     * exec per probe), so a monitor that probes every few seconds pays one request line per node
     * instead of an SSH exec, a python3 start and the GPU library's initialisation.
     */
    public Prober(AgentScript script, Duration timeout, String jobRoot, ResidentAgents residents) {
        this.round = new ProbeRound(script, timeout, residents);
        this.request = AgentRequest.probe(jobRoot);
    }

    private java.util.Map<String, String> claimsDirs = java.util.Map.of();

    /**
     * This prober reading each named node's claims from the server's {@code claims_dir} (docs/sharing.md)
     * instead of the node's default.
     */
    public Prober withClaimsDirs(java.util.Map<String, String> byNode) {
        this.claimsDirs = java.util.Map.copyOf(byNode);
        return this;
    }

    private AgentRequest request(Node node) {
        String dir = claimsDirs.get(node.name());
        return dir == null ? request : request.withClaims(new AgentRequest.Claims(dir, null, null));
    }

    /** Probes one node on this thread; a failure is a result, never an exception. */
    public ProbeResult probe(Node node) {
        return result(node, round.ask(node, request(node)));
    }

    /** Probes every node in parallel; the result list is in the order of {@code nodes}. */
    public List<ProbeResult> probeAll(List<Node> nodes) {
        List<NodeAnswer> answers = round.each(nodes, this::request);
        List<ProbeResult> results = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            results.add(result(nodes.get(i), answers.get(i)));
        }
        return results;
    }

    private static ProbeResult result(Node node, NodeAnswer answer) {
        return answer.answered()
                ? ProbeResult.answered(node.name(), node.address(), answer.reply().snapshot(), answer.elapsed())
                : ProbeResult.failed(node.name(), node.address(), answer.failure(), answer.elapsed());
    }
}
