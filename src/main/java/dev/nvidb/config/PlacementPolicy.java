package dev.nvidb.config;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** How the scheduler chooses among fitting GPUs: spread jobs over cards or pack them onto the fullest. */
public enum PlacementPolicy {
    SPREAD("spread"),
    PACK("pack");

    private final String key;

    PlacementPolicy(String key) {
        this.key = key;
    }

    /** The spelling used in the YAML files. */
    public String key() {
        return key;
    }

    /** The constant spelled {@code text} in a YAML file (case-insensitive), if any. */
    public static Optional<PlacementPolicy> parse(String text) {
        return Arrays.stream(values()).filter(v -> v.key.equalsIgnoreCase(text)).findFirst();
    }

    /** Every valid spelling, for error hints. */
    public static List<String> keys() {
        return Arrays.stream(values()).map(PlacementPolicy::key).toList();
    }
}
