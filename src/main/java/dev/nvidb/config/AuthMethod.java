package dev.nvidb.config;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** How nvidb authenticates to a server: {@code auto} tries agent, keys, then a password. */
public enum AuthMethod {
    AUTO("auto"),
    KEY("key"),
    PASSWORD("password"),
    AGENT("agent");

    private final String key;

    AuthMethod(String key) {
        this.key = key;
    }

    /** The spelling used in the YAML files. */
    public String key() {
        return key;
    }

    /** The constant spelled {@code text} in a YAML file (case-insensitive), if any. */
    public static Optional<AuthMethod> parse(String text) {
        return Arrays.stream(values()).filter(v -> v.key.equalsIgnoreCase(text)).findFirst();
    }

    /** Every valid spelling, for error hints. */
    public static List<String> keys() {
        return Arrays.stream(values()).map(AuthMethod::key).toList();
    }
}
