package dev.nvidb.config;

import java.util.Objects;

/**
 * The {@code remote:} section of {@code queue.yml}: forward every queue command to a queue host
 * over SSH instead of using a local database.
 *
 * @param host      SSH host or alias of the queue host (required)
 * @param nvidb     the nvidb command on that host; absolute is safest, a non-interactive shell has a thin PATH
 * @param port      SSH port; null means "from ~/.ssh/config, else 22"
 * @param username  login name; null means "from ~/.ssh/config, else the local user"
 * @param nvidbHome NVIDB_HOME for the forwarded commands on that host; null means the far side's own default
 * @param keeper    what to do about the queue host's keeper before each forwarded command
 */
public record RemoteConfig(String host, String nvidb, Integer port, String username, String nvidbHome,
                           Keeper keeper) {

    /** The command name used when {@code nvidb} is not set. */
    public static final String DEFAULT_COMMAND = "nvidb";

    /** {@code keeper:}: run {@code queue keeper ensure} on the queue host first, or leave the keeper alone. */
    public enum Keeper {
        ENSURE, OFF
    }

    public RemoteConfig {
        Objects.requireNonNull(host, "host");
        nvidb = nvidb == null ? DEFAULT_COMMAND : nvidb;
        keeper = keeper == null ? Keeper.ENSURE : keeper;
    }

    /** A remote with the default NVIDB_HOME and keeper handling. */
    public RemoteConfig(String host, String nvidb, Integer port, String username) {
        this(host, nvidb, port, username, null, Keeper.ENSURE);
    }

    /** A copy that forwards to another host, keeping the other keys. */
    public RemoteConfig withHost(String newHost) {
        return new RemoteConfig(newHost, nvidb, port, username, nvidbHome, keeper);
    }
}
