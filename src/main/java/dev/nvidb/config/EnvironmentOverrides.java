package dev.nvidb.config;

import dev.nvidb.error.ConfigException;
import dev.nvidb.model.HostKeyPolicy;
import java.util.Map;

/**
 * Environment variables applied after both files: {@code NVIDB_HOST_KEY_POLICY},
 * {@code NVIDB_CONNECT_TIMEOUT} and {@code NVIDB_REMOTE}. ({@code NVIDB_HOME} is read by
 * {@link NvidbHome}.) A bad value is an error that names the variable.
 */
final class EnvironmentOverrides {

    static final String HOST_KEY_POLICY = "NVIDB_HOST_KEY_POLICY";
    static final String CONNECT_TIMEOUT = "NVIDB_CONNECT_TIMEOUT";
    static final String REMOTE = "NVIDB_REMOTE";

    private EnvironmentOverrides() {
    }

    static NvidbConfig apply(NvidbConfig config, Map<String, String> env) {
        BasicConfig basic = config.basic();
        String policy = env.get(HOST_KEY_POLICY);
        if (policy != null) {
            basic = basic.withHostKeyPolicy(HostKeyPolicy.parse(policy.strip()).orElseThrow(() -> new ConfigException(
                    HOST_KEY_POLICY + " must be one of " + String.join(", ", HostKeyPolicy.keys()) + ", got \""
                            + policy + "\"", "unset it to use basic.host_key_policy from config.yml")));
        }
        String timeout = env.get(CONNECT_TIMEOUT);
        if (timeout != null) {
            basic = basic.withConnectTimeout(seconds(timeout));
        }
        RemoteConfig remote = remote(config.remote(), env.get(REMOTE));
        return new NvidbConfig(config.home(), basic, config.view(), config.monitorServers(), config.queueServers(),
                config.queue(), remote, config.warnings(), config.log());
    }

    private static int seconds(String text) {
        try {
            int seconds = Integer.parseInt(text.strip());
            if (seconds >= 1 && seconds <= 3600) {
                return seconds;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigException(CONNECT_TIMEOUT + " must be an integer between 1 and 3600 (seconds), got \""
                + text + "\"", "unset it to use basic.connect_timeout from config.yml");
    }

    /** Empty disables forwarding; a host replaces remote.host and keeps the other remote keys. */
    private static RemoteConfig remote(RemoteConfig fromFile, String host) {
        if (host == null) {
            return fromFile;
        }
        String value = host.strip();
        if (value.isEmpty()) {
            return null;
        }
        if (value.startsWith("-") || value.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            throw new ConfigException(REMOTE + " must be a host name, address or ssh alias, got \"" + host + "\"",
                    "set it to the queue host, or to an empty string to run against the local queue");
        }
        return fromFile == null ? new RemoteConfig(value, null, null, null) : fromFile.withHost(value);
    }
}
