package dev.nvidb.ssh;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Where a node really is once its {@link SshTarget} has been merged with the ssh config files
 * (as {@code ssh -G} would give it): the address, port, user, identity and certificate files
 * and the resolved jump hosts, in connection order. {@code nvidb ls --detail} shows it.
 *
 * @param node           the node (or, for a jump host, the jump host's name as written)
 * @param alias          the name looked up in ssh config
 * @param hostname       the host actually contacted
 * @param identityFiles  the identity files tried, in order (missing default files are skipped)
 * @param identityOrigin where {@code identityFiles} came from
 * @param jumps          the hosts to jump through, first hop first (each without jumps of its own)
 * @param certificateFiles the CertificateFile values, expanded (reported; nvidb does not use certificates)
 * @param identitiesOnly IdentitiesOnly as obtained (reported; ssh-agent keys are still offered)
 * @param proxyJump      the ProxyJump value in effect, as written, or null for none
 */
public record ResolvedTarget(
        String node,
        String alias,
        String hostname,
        int port,
        String username,
        SshAuth auth,
        List<Path> identityFiles,
        IdentityOrigin identityOrigin,
        String password,
        List<ResolvedTarget> jumps,
        List<Path> certificateFiles,
        boolean identitiesOnly,
        String proxyJump) {

    /** Where the identity files of a target were named. */
    public enum IdentityOrigin {
        /** The nvidb node configuration named one file; it must exist. */
        TARGET,
        /** {@code IdentityFile} lines in ssh config. */
        SSH_CONFIG,
        /** None named: OpenSSH's list, {@code ~/.ssh/id_rsa} to {@code id_dsa} (see TargetResolver), where present. */
        DEFAULT
    }

    public ResolvedTarget {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(hostname, "hostname");
        Objects.requireNonNull(username, "username");
        identityFiles = List.copyOf(identityFiles);
        jumps = List.copyOf(jumps);
        certificateFiles = List.copyOf(certificateFiles);
    }

    /** This host as a hop: the same, without its own jump hosts. */
    ResolvedTarget withoutJumps() {
        return new ResolvedTarget(node, alias, hostname, port, username, auth, identityFiles, identityOrigin, password,
                List.of(), certificateFiles, identitiesOnly, null);
    }

    /** The same with {@code files} as the only identity, named by nvidb's own node settings. */
    ResolvedTarget withTargetIdentity(Path file) {
        return new ResolvedTarget(node, alias, hostname, port, username, auth, List.of(file), IdentityOrigin.TARGET,
                password, jumps, certificateFiles, identitiesOnly, proxyJump);
    }

    /** {@code host:port} as contacted (for a jumped host, as reached from the last jump). */
    public String address() {
        return (hostname.contains(":") ? "[" + hostname + "]" : hostname) + ":" + port;
    }

    /** {@code node (host:port)}, the prefix of every message about this host. */
    public String label() {
        return node + " (" + address() + ")";
    }

    /** One line for people: {@code alice@127.0.0.2:2222 via login-a (10.0.0.1:22)}. */
    public String describe() {
        StringBuilder text = new StringBuilder(username).append('@').append(address());
        if (!jumps.isEmpty()) {
            text.append(" via ");
            for (int i = 0; i < jumps.size(); i++) {
                text.append(i == 0 ? "" : ", ").append(jumps.get(i).label());
            }
        }
        return text.toString();
    }

    @Override
    public String toString() {
        return "ResolvedTarget[" + node + " " + describe() + ", auth=" + auth + ", identities=" + identityFiles
                + " (" + identityOrigin + "), password=" + (password == null ? "null" : "***") + "]";
    }
}
