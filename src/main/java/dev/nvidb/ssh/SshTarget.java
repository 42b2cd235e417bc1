package dev.nvidb.ssh;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A node as the user's nvidb configuration describes it. Every field but the node name may be
 * absent; {@link TargetResolver} fills the gaps from {@code ~/.ssh/config} and defaults.
 *
 * @param node         the node's name in nvidb (used in every message)
 * @param hostname     what to connect to: a host name, an address or an ssh config alias; null means the node name
 * @param port         the TCP port, or null for the ssh config's or 22
 * @param username     the remote user, or null for the ssh config's or the local user
 * @param auth         which authentication methods are allowed
 * @param identityFile a private key file to use instead of the defaults, or null
 * @param password     the password for {@link SshAuth#PASSWORD}, or null to ask at the terminal
 * @param proxyJump    a jump host or comma-separated chain ({@code login-a,alice@login-b:2222}), or null
 */
public record SshTarget(
        String node,
        String hostname,
        Integer port,
        String username,
        SshAuth auth,
        Path identityFile,
        String password,
        String proxyJump) {

    public SshTarget {
        Objects.requireNonNull(node, "node");
        auth = auth == null ? SshAuth.AUTO : auth;
    }

    /** A target whose host is its name (an address or an ssh config alias), everything else defaulted. */
    public static SshTarget of(String node) {
        return new SshTarget(node, null, null, null, SshAuth.AUTO, null, null, null);
    }

    public SshTarget withHostname(String value) {
        return new SshTarget(node, value, port, username, auth, identityFile, password, proxyJump);
    }

    public SshTarget withPort(Integer value) {
        return new SshTarget(node, hostname, value, username, auth, identityFile, password, proxyJump);
    }

    public SshTarget withUsername(String value) {
        return new SshTarget(node, hostname, port, value, auth, identityFile, password, proxyJump);
    }

    public SshTarget withAuth(SshAuth value) {
        return new SshTarget(node, hostname, port, username, value, identityFile, password, proxyJump);
    }

    public SshTarget withIdentityFile(Path value) {
        return new SshTarget(node, hostname, port, username, auth, value, password, proxyJump);
    }

    public SshTarget withPassword(String value) {
        return new SshTarget(node, hostname, port, username, auth, identityFile, value, proxyJump);
    }

    public SshTarget withProxyJump(String value) {
        return new SshTarget(node, hostname, port, username, auth, identityFile, password, value);
    }

    /** The name to look up in ssh config: the host name when given, else the node name. */
    public String hostOrNode() {
        return hostname == null || hostname.isBlank() ? node : hostname;
    }

    @Override
    public String toString() {
        return "SshTarget[node=" + node + ", hostname=" + hostname + ", port=" + port + ", username=" + username
                + ", auth=" + auth + ", identityFile=" + identityFile
                + ", password=" + (password == null ? "null" : "***") + ", proxyJump=" + proxyJump + "]";
    }
}
