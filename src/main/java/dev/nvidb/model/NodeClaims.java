package dev.nvidb.model;

import java.util.List;

/**
 * The claims directory of a node as its probe read it (docs/sharing.md).
 *
 * @param dir      the directory on the node, or null when the agent did not read one (an older agent,
 *                 a snapshot from nvidia-smi alone)
 * @param error    why the directory was not read (unsafe: not sticky, a link, another user's), or null
 * @param warnings one line per claim file ignored (a link, garbage, too large, a forged owner)
 * @param live     every live claim, of every queue (this one's included)
 */
public record NodeClaims(String dir, String error, List<String> warnings, List<GpuClaim> live) {

    /** Nothing read. */
    public static final NodeClaims NONE = new NodeClaims(null, null, List.of(), List.of());

    public NodeClaims {
        warnings = List.copyOf(warnings);
        live = List.copyOf(live);
    }

    /** The live claims of other queues on the GPU with this UUID. */
    public List<GpuClaim> foreignOn(String uuid) {
        return live.stream().filter(claim -> claim.holds(uuid) && !claim.ownQueue()).toList();
    }

    /** The live claims on the GPU with this UUID, of any queue. */
    public List<GpuClaim> on(String uuid) {
        return live.stream().filter(claim -> claim.holds(uuid)).toList();
    }
}
