package dev.nvidb.node;

import dev.nvidb.agent.ProbeReply;
import java.time.Duration;

/**
 * What one agent exec on one node gave: a reply, or why there is none.
 *
 * @param node    the node
 * @param reply   the parsed reply, or null when the node did not answer
 * @param raw     the reply as the node sent it (kept as the node's last probe), or null
 * @param failure why there is no reply (unreachable, timeout, agent crash), or null
 * @param elapsed how long the exec took
 */
public record NodeAnswer(String node, ProbeReply reply, String raw, String failure, Duration elapsed) {

    public NodeAnswer {
        if ((reply == null) == (failure == null)) {
            throw new IllegalArgumentException("a node answer has either a reply or a failure");
        }
    }

    /** The answer of a node that gave no reply. */
    public static NodeAnswer failed(String node, String failure, Duration elapsed) {
        return new NodeAnswer(node, null, null, failure, elapsed);
    }

    public boolean answered() {
        return reply != null;
    }
}
