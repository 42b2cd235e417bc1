package dev.nvidb.ssh;

import dev.nvidb.error.SshException;
import dev.nvidb.model.HostKeyPolicy;
import dev.nvidb.ssh.KnownHostsFile.Verdict;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.digest.BuiltinDigests;

/**
 * The host-key decision for one connection to one host (a node or a jump host): compares the
 * presented key with known_hosts under the policy, remembers what it saw, and explains a refusal.
 */
final class HostKeyCheck {

    /** What the check does with an unknown key; {@link #SCAN} records the key and never lets the session proceed. */
    enum Mode { STRICT, ACCEPT_NEW, SCAN }

    private final HopLabel label;
    private final Mode mode;
    private final KnownHostsFile knownHosts;
    private volatile PublicKey presented;
    private volatile Verdict verdict;

    HostKeyCheck(HopLabel label, Mode mode, KnownHostsFile knownHosts) {
        this.label = label;
        this.mode = mode;
        this.knownHosts = knownHosts;
    }

    static Mode modeFor(HostKeyPolicy policy) {
        return policy == HostKeyPolicy.ACCEPT_NEW ? Mode.ACCEPT_NEW : Mode.STRICT;
    }

    /** Called by MINA during key exchange; true lets the session continue. */
    boolean verify(PublicKey key) {
        presented = key;
        Verdict result = knownHosts.check(label.host(), label.port(), key);
        verdict = result;
        if (mode == Mode.SCAN) {
            return false;
        }
        if (result == Verdict.UNKNOWN && mode == Mode.ACCEPT_NEW) {
            knownHosts.append(label.host(), label.port(), key);
            return true;
        }
        return result == Verdict.KNOWN;
    }

    /**
     * Reorders the host-key algorithms offered in key exchange so that types already recorded
     * for this host come first, as OpenSSH does; otherwise a host with several keys could
     * present one we have not recorded and look CHANGED.
     */
    String preferKnownTypes(String offered) {
        Set<String> known = knownHosts.knownKeyTypes(label.host(), label.port());
        if (known.isEmpty() || offered == null) {
            return offered;
        }
        List<String> first = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        for (String algorithm : offered.split(",")) {
            (known.contains(keyTypeOf(algorithm)) ? first : rest).add(algorithm);
        }
        first.addAll(rest);
        return String.join(",", first);
    }

    private static String keyTypeOf(String algorithm) {
        return algorithm.startsWith("rsa-sha2-") ? "ssh-rsa" : algorithm;
    }

    /** The key the host presented, or null if key exchange never got that far. */
    PublicKey presented() {
        return presented;
    }

    Verdict verdict() {
        return verdict;
    }

    /** True when the key was seen and refused (not merely scanned). */
    boolean refused() {
        return verdict != null && mode != Mode.SCAN
                && verdict != Verdict.KNOWN && !(verdict == Verdict.UNKNOWN && mode == Mode.ACCEPT_NEW);
    }

    /** The one-line error for a refused key. */
    SshException refusal() {
        String subject = "host key for " + label.subject();
        String presentedText = presented == null ? "" : KeyUtils.getKeyType(presented) + " " + fingerprint(presented);
        return switch (verdict) {
            // The trust command is in the message itself: the monitor and the queue show a node's
            // failure as one line of data, without the hint.
            case UNKNOWN -> label.isJump()
                    ? new SshException(subject + " is not known",
                            "record it by connecting once with 'ssh " + label.name() + "', or set host_key_policy: accept-new")
                    : new SshException(subject + " is not known: run 'nvidb trust " + label.name() + "'",
                            "'nvidb trust " + label.name() + "' shows its fingerprint and records it in known_hosts; "
                                    + "or set host_key_policy: accept-new");
            case CHANGED -> new SshException(subject + " has CHANGED: it now presents " + presentedText
                    + ", which does not match " + knownHosts.path(),
                    "if the host was reinstalled, remove the old entry with ssh-keygen -R '"
                            + KnownHostsFile.pattern(label.host(), label.port()) + "' -f " + knownHosts.path()
                            + " and trust it again; otherwise someone may be intercepting the connection");
            case REVOKED -> new SshException(subject + " is marked @revoked in " + knownHosts.path()
                    + " (" + presentedText + ")", "the host must get a new key before nvidb connects to it");
            case KNOWN -> new SshException(subject + " was accepted");
        };
    }

    /** OpenSSH's fingerprint form: {@code SHA256:} and base64 without padding. */
    static String fingerprint(PublicKey key) {
        return KeyUtils.getFingerPrint(BuiltinDigests.sha256, key);
    }
}
