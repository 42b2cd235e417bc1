package dev.nvidb.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One SSH server from a {@code servers:} list. Only the hostname is required; everything else
 * falls back to {@code ~/.ssh/config} and OpenSSH defaults when null.
 *
 * @param hostname     host name, address or {@code ~/.ssh/config} alias (required)
 * @param port         SSH port; null means "from ~/.ssh/config, else 22"
 * @param username     login name; null means "from ~/.ssh/config, else the local user"
 * @param nickname     display name; null means the hostname is shown
 * @param auth         authentication method
 * @param identityfile private key, with {@code ~} already expanded; may not exist (the SSH layer reports that)
 * @param password     plain-text password (discouraged; the loader warns)
 * @param proxyjump    jump host or comma-separated chain such as {@code login-a,alice@login-b:2222}
 * @param gpus         GPU indices open to new queue placements; null = all, empty = none (CPU jobs only)
 * @param slurm        for a server of {@code kind: slurm}, the partition it submits to (its login node is
 *                     the host); null for a plain server
 * @param claimsDir    where the node keeps the GPU claims every queue sharing it reads and writes
 *                     (docs/sharing.md); null for the agent's default, {@code /tmp/nvidb-claims}
 */
public record ServerConfig(
        String hostname,
        Integer port,
        String username,
        String nickname,
        AuthMethod auth,
        Path identityfile,
        String password,
        String proxyjump,
        List<Integer> gpus,
        dev.nvidb.model.SlurmTarget slurm,
        String claimsDir) {

    /** A server with the default claims directory. */
    public ServerConfig(String hostname, Integer port, String username, String nickname, AuthMethod auth,
                        Path identityfile, String password, String proxyjump, List<Integer> gpus,
                        dev.nvidb.model.SlurmTarget slurm) {
        this(hostname, port, username, nickname, auth, identityfile, password, proxyjump, gpus, slurm, null);
    }

    /** A plain server (not a Slurm cluster). */
    public ServerConfig(String hostname, Integer port, String username, String nickname, AuthMethod auth,
                        Path identityfile, String password, String proxyjump, List<Integer> gpus) {
        this(hostname, port, username, nickname, auth, identityfile, password, proxyjump, gpus, null);
    }

    public ServerConfig {
        Objects.requireNonNull(hostname, "hostname");
        auth = auth == null ? AuthMethod.AUTO : auth;
        gpus = gpus == null ? null : List.copyOf(gpus);
    }

    /** A server known only by its host name or alias, everything else defaulted. */
    public static ServerConfig ofHost(String hostname) {
        return new ServerConfig(hostname, null, null, null, AuthMethod.AUTO, null, null, null, null);
    }

    /** The name shown and used to refer to this server: the nickname if set, else the hostname. */
    public String name() {
        return nickname != null ? nickname : hostname;
    }

    /** Whether {@link #gpus()} limits placement to listed cards (including none). */
    public boolean restrictsGpus() {
        return gpus != null;
    }

    @Override
    public String toString() {
        // Never print the password, not even in a debugger or a log line.
        return "ServerConfig[name=" + name() + ", hostname=" + hostname + ", port=" + port
                + ", username=" + username + ", auth=" + auth.key() + ", identityfile=" + identityfile
                + ", password=" + (password == null ? "null" : "****") + ", proxyjump=" + proxyjump
                + ", gpus=" + gpus + (slurm == null ? "" : ", slurm=" + slurm)
                + (claimsDir == null ? "" : ", claimsDir=" + claimsDir) + "]";
    }
}
