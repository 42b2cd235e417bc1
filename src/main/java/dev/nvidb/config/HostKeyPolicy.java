package dev.nvidb.config;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** What to do with an SSH host key that is not in known_hosts: refuse ({@code strict}) or record it ({@code accept-new}). */
public enum HostKeyPolicy {
    STRICT("strict"),
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
