package dev.nvidb.model;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What to do with an SSH host key that is not yet in known_hosts, as the config files spell it
 * ({@code host_key_policy}) and as the SSH client applies it. A changed key is refused under every
 * policy.
 */
public enum HostKeyPolicy {
    /** Refuse hosts whose key is not recorded; the user records it with {@code nvidb trust NODE}. */
    STRICT("strict"),
    /** Record the key of a host seen for the first time, then verify it on every later connection. */
    ACCEPT_NEW("accept-new");

    private final String key;

    HostKeyPolicy(String key) {
        this.key = key;
    }

    /** The spelling used in the YAML files. */
    public String key() {
        return key;
    }

    /** The constant spelled {@code text} in a YAML file (case-insensitive), if any. */
    public static Optional<HostKeyPolicy> parse(String text) {
        return Arrays.stream(values()).filter(v -> v.key.equalsIgnoreCase(text)).findFirst();
    }

    /** Every valid spelling, for error hints. */
    public static List<String> keys() {
        return Arrays.stream(values()).map(HostKeyPolicy::key).toList();
    }
}
