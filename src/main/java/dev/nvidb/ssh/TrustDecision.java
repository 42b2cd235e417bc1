package dev.nvidb.ssh;

import dev.nvidb.error.SshException;
import dev.nvidb.error.UsageException;
import java.util.Optional;

/**
 * What {@code nvidb trust} does with the key a server presents, decided apart from how the
 * front end asks and prints: a known key is left as it is, a changed key is never replaced, and
 * an unknown key is recorded only when its fingerprint matches the one given, or a person said
 * yes (up front, or when asked).
 */
public final class TrustDecision {

    /** Asks a person whether to trust the key; empty when nobody can be asked (no terminal). */
    @FunctionalInterface
    public interface Confirmation {
        Optional<Boolean> ask();
    }

    private TrustDecision() {
    }

    /**
     * Whether to record the scanned key in known_hosts (false: it is there already).
     *
     * @param scan     the key presented and how it compares with known_hosts
     * @param node     the server as the user named it (for messages)
     * @param where    {@code host} or {@code [host]:port}, as known_hosts writes it
     * @param expected the fingerprint checked out of band, or null
     * @param yes      the user agreed up front
     * @param confirm  asks the user when neither {@code expected} nor {@code yes} decides
     * @throws SshException   when the key changed, or does not have the expected fingerprint
     * @throws UsageException when nobody could confirm, or the user declined
     */
    public static boolean record(HostKeyScan scan, String node, String where, String expected, boolean yes,
                                 Confirmation confirm) {
        switch (scan.status()) {
            case KNOWN -> {
                return false;
            }
            case CHANGED -> throw new SshException("host key for " + node + " (" + where + ") has CHANGED from the one"
                    + " in known_hosts; refusing to replace it", "if the change is expected, remove the old entry with"
                    + " 'ssh-keygen -R \"" + where + "\"' and run 'nvidb trust " + node + "' again");
            default -> {
                if (expected != null) {
                    if (!expected.equals(scan.fingerprint())) {
                        throw new SshException("host key fingerprint for " + node + " is " + scan.fingerprint()
                                + ", not the expected " + expected, "do not trust this host until you know why");
                    }
                    return true;
                }
                if (yes) {
                    return true;
                }
                boolean agreed = confirm.ask().orElseThrow(() -> new UsageException(
                        "not recorded: no terminal to confirm the fingerprint on",
                        "compare it with the server's own ('ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub'), then run"
                                + " 'nvidb trust " + node + " --yes' or '--fingerprint SHA256:…'"));
                if (!agreed) {
                    throw new UsageException("not recorded");
                }
                return true;
            }
        }
    }
}
