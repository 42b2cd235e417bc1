package dev.nvidb.doctor;

import java.util.List;

/**
 * What {@code nvidb doctor} found on one node: the facts it could establish (null where it
 * could not get that far) and its checks, in the order they were made.
 *
 * @param node                 the node's name
 * @param address              where it is ({@code host:port}, or {@code local})
 * @param local                this machine, reached without SSH
 * @param roles                {@code queue} (a queue node) and/or {@code monitor} (a monitor server)
 * @param reachable            SSH answered and exchanged keys (always true for this machine)
 * @param hostKey              {@code known}, {@code unknown} or {@code changed} against known_hosts; null: not seen
 * @param hostKeyFingerprint   the key the node presented ({@code SHA256:…}), or null
 * @param auth                 how the node accepted us ({@code publickey ~/.ssh/id_ed25519}, …), or null
 * @param python               the node's python3 version, or null when missing or not reached
 * @param gpuSource            {@code nvml}, {@code nvidia-smi} or {@code none}; null when not probed
 * @param driverVersion        the NVIDIA driver version, or null
 * @param gpus                 how many GPUs the probe saw, or null
 * @param clockSkewSeconds     the node's clock minus this machine's, at the round trip's midpoint, or null
 * @param clockUncertaintySeconds half the round trip: the skew is known to within this
 * @param diskPath             the job root on the node
 * @param diskFreeMb           free space under it, or null
 * @param procHidepid          /proc's {@code hidepid=} option on the node ("0" when absent), or null
 * @param procHidesOthers      whether /proc hides other users' processes from our user, or null
 * @param checks               every check made, in order
 */
public record NodeReport(String node, String address, boolean local, List<String> roles, boolean reachable,
                         String hostKey, String hostKeyFingerprint, String auth, String python, String gpuSource,
                         String driverVersion, Integer gpus, Double clockSkewSeconds, Double clockUncertaintySeconds,
                         String diskPath, Long diskFreeMb, String procHidepid, Boolean procHidesOthers,
                         List<Check> checks) {

    public NodeReport {
        roles = List.copyOf(roles);
        checks = List.copyOf(checks);
    }

    /** True when a check found a problem. */
    public boolean needsAttention() {
        return checks.stream().anyMatch(Check::problem);
    }
}
