package dev.nvidb.model;

import java.util.List;

/**
 * The claims directory of a node as its probe read it (docs/sharing.md).
 *
 * @param dir         the directory on the node, or null when the agent did not read one (an older agent,
 *                    a snapshot from nvidia-smi alone)
 * @param error       why the directory was not read (unsafe: not sticky, a link, another user's), or null
 * @param warnings    one line per claim or demand file ignored (a link, garbage, too large, a forged owner)
 * @param live        every live claim, of every queue (this one's included)
 * @param demand      every queue's fresh waiting demand on the node (this one's included)
 * @param policy      the text of the node's {@code policy.yml}, or null when it has none (or it was ignored)
 * @param policyError why the policy file was ignored (a link, writable by others, a stranger's), or null
 * @param me          who the agent ran as, or null from an agent that did not say
 */
public record NodeClaims(String dir, String error, List<String> warnings, List<GpuClaim> live,
                         List<QueueDemand> demand, String policy, String policyError, User me) {

    /** Nothing read. */
    public static final NodeClaims NONE = new NodeClaims(null, null, List.of(), List.of());

    /** A login on the node. */
    public record User(int uid, String name) {
    }

    public NodeClaims {
        warnings = List.copyOf(warnings);
        live = List.copyOf(live);
        demand = demand == null ? List.of() : List.copyOf(demand);
    }

    /** Claims alone: no demand, no policy. */
    public NodeClaims(String dir, String error, List<String> warnings, List<GpuClaim> live) {
        this(dir, error, warnings, live, List.of(), null, null, null);
    }

    /** The live claims of other queues on the GPU with this UUID. */
    public List<GpuClaim> foreignOn(String uuid) {
        return live.stream().filter(claim -> claim.holds(uuid) && !claim.ownQueue()).toList();
    }

    /** The live claims on the GPU with this UUID, of any queue. */
    public List<GpuClaim> on(String uuid) {
        return live.stream().filter(claim -> claim.holds(uuid)).toList();
    }

    /** Other queues' demand on the node (the asking queue's own left out). */
    public List<QueueDemand> foreignDemand() {
        return demand.stream().filter(entry -> !entry.ownQueue()).toList();
    }
}
