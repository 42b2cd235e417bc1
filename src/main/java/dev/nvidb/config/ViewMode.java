package dev.nvidb.config;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The monitor TUI layout: one block per node or one table of every GPU. */
public enum ViewMode {
    PER_NODE("per-node"),
    UNIFIED("unified");

    private final String key;

    ViewMode(String key) {
        this.key = key;
    }

    /** The spelling used in the YAML files. */
    public String key() {
        return key;
    }

    /** The constant spelled {@code text} in a YAML file (case-insensitive), if any. */
    public static Optional<ViewMode> parse(String text) {
        return Arrays.stream(values()).filter(v -> v.key.equalsIgnoreCase(text)).findFirst();
    }

    /** Every valid spelling, for error hints. */
    public static List<String> keys() {
        return Arrays.stream(values()).map(ViewMode::key).toList();
    }
}
