package dev.nvidb.ssh;

import java.security.PublicKey;

/**
 * The host key a node presented, read without authenticating, for {@code nvidb trust NODE}.
 *
 * @param node        the node name
 * @param host        the host name the key is recorded under in known_hosts
 * @param port        the port (a non-22 port is recorded as {@code [host]:port})
 * @param keyType     the OpenSSH key type, e.g. {@code ssh-ed25519}
 * @param fingerprint the OpenSSH fingerprint, {@code SHA256:} and unpadded base64
 * @param key         the key itself, to pass to {@link SshPool#trust}
 * @param status      how the key compares with known_hosts
 */
public record HostKeyScan(String node, String host, int port, String keyType, String fingerprint,
        PublicKey key, Status status) {

    /** The presented key compared with known_hosts. */
    public enum Status {
        /** known_hosts already holds this key for the host. */
        KNOWN,
        /** known_hosts has no key for the host. */
        UNKNOWN,
        /** known_hosts holds a different key for the host (or marks this one revoked). */
        CHANGED
    }
}
