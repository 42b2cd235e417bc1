package dev.nvidb.output;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.nvidb.config.NodePolicy;
import dev.nvidb.model.NodeClaims;
import java.util.List;

/**
 * A node's sharing state in the JSON documents (docs/json.md, docs/sharing.md): its claims
 * directory, what was wrong there, its policy as honoured (or why not), and what other queues
 * wait for on it. Absent for a node whose agent read no claims directory.
 *
 * @param claimsDir   the claims directory on the node
 * @param error       why it was not read (unsafe), or null
 * @param warnings    claim and demand files ignored, one line each
 * @param policy      the policy honoured there in words ("share fair; bob: max 1 GPU"), or null for none
 * @param share       {@code fair} or {@code first_come}
 * @param policyError why the node's policy.yml is not honoured, or null
 * @param waiting     other queues' published demand on the node
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record JsonSharing(String claimsDir, String error, List<String> warnings, String policy, String share,
                          String policyError, List<Waiting> waiting) {

    /**
     * One queue's waiting demand: ready GPU jobs that could run on the node, the smallest of them, and
     * the oldest one's submission time.
     */
    public record Waiting(String user, int uid, String queue, String queueId, int jobs, int gpus, long mibPerGpu,
                          boolean exclusive, long oldestSubmittedAt, String text) {
    }

    /** The node's sharing state, or null when its probe read no claims directory. */
    static JsonSharing of(NodeClaims claims) {
        if (claims == null || claims.dir() == null) {
            return null;
        }
        NodePolicy policy = NodePolicy.of(claims).orElse(null);
        return new JsonSharing(claims.dir(), claims.error(), claims.warnings(),
                policy == null ? null : policy.describe(),
                policy == null || policy.share() == NodePolicy.Share.FIRST_COME ? "first_come" : "fair",
                NodePolicy.problem(claims),
                claims.foreignDemand().stream().map(entry -> new Waiting(entry.user(), entry.uid(), entry.queueName(),
                        entry.queueId(), entry.waiting(), entry.gpus(), entry.mib(), entry.exclusive(), entry.oldestAt(),
                        entry.describe())).toList());
    }
}
