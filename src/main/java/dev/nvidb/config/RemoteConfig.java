package dev.nvidb.config;

import java.util.Objects;

/**
 * The {@code remote:} section of {@code queue.yml}: forward every queue command to a queue host
 * over SSH instead of using a local database.
 *
 * @param host     SSH host or alias of the queue host (required)
 * @param nvidb    the nvidb command on that host; absolute is safest, a non-interactive shell has a thin PATH
 * @param port     SSH port; null means "from ~/.ssh/config, else 22"
 * @param username login name; null means "from ~/.ssh/config, else the local user"
 */
public record RemoteConfig(String host, String nvidb, Integer port, String username) {

    /** The command name used when {@code nvidb} is not set. */
    public static final String DEFAULT_COMMAND = "nvidb";

    public RemoteConfig {
        Objects.requireNonNull(host, "host");
        nvidb = nvidb == null ? DEFAULT_COMMAND : nvidb;
    }

    /** A copy that forwards to another host, keeping the command, port and user. */
    public RemoteConfig withHost(String newHost) {
        return new RemoteConfig(newHost, nvidb, port, username);
    }
}
