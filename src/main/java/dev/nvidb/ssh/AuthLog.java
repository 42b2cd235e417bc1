package dev.nvidb.ssh;

import dev.nvidb.error.SshException;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What happened while authenticating one host: the methods and keys tried, what the server
 * said it accepts, and problems met on the way (a key that could not be unlocked, an agent
 * that did not answer). It turns a failed authentication into one line that says why, and
 * remembers which method succeeded ({@code nvidb doctor} shows it).
 */
final class AuthLog {

    private final List<String> tried = new ArrayList<>();
    private final Set<String> serverMethods = new LinkedHashSet<>();
    private final List<SshException> keyProblems = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final Map<String, String> keySources = new HashMap<>();
    private String succeeded;

    synchronized void tried(String what) {
        if (!tried.contains(what)) {
            tried.add(what);
        }
    }

    synchronized void serverAccepts(List<String> methods) {
        if (methods != null) {
            serverMethods.addAll(methods);
        }
    }

    /** A key that could not be used; if authentication fails, this becomes the message. */
    synchronized void keyProblem(SshException problem) {
        keyProblems.add(problem);
    }

    /** A remark for the failure message (a configured file that is missing, an agent that is unreachable). */
    synchronized void note(String remark) {
        if (!notes.contains(remark)) {
            notes.add(remark);
        }
    }

    /** Remembers that {@code key} was loaded from {@code source} (an identity file, as shown). */
    synchronized void keySource(PublicKey key, String source) {
        keySources.putIfAbsent(HostKeyCheck.fingerprint(key), source);
    }

    /** Public-key authentication succeeded with {@code key}: from an identity file if one was loaded, else the agent. */
    synchronized void succeededWithKey(PublicKey key) {
        String fingerprint = HostKeyCheck.fingerprint(key);
        String file = keySources.get(fingerprint);
        succeeded = file != null ? "publickey " + file : "ssh-agent key " + fingerprint;
    }

    synchronized void succeededWithPassword() {
        succeeded = "password";
    }

    /** How this host accepted us: {@code publickey ~/.ssh/id_ed25519}, {@code ssh-agent key SHA256:…} or {@code password}. */
    synchronized Optional<String> succeeded() {
        return Optional.ofNullable(succeeded);
    }

    /** The error for a failed authentication of {@code label} as {@code user}. */
    synchronized SshException failure(HopLabel label, String user, String hint) {
        if (!keyProblems.isEmpty()) {
            SshException first = keyProblems.get(0);
            return new SshException(label.text() + ": " + first.getMessage(), first.hint().orElse(hint), first);
        }
        StringBuilder message = new StringBuilder(label.text()).append(": authentication failed for user ")
                .append(user).append(" (tried ").append(tried.isEmpty() ? "no keys" : String.join(", ", tried));
        if (!serverMethods.isEmpty()) {
            message.append("; server accepts ").append(String.join(",", serverMethods));
        }
        message.append(')');
        for (String remark : notes) {
            message.append("; ").append(remark);
        }
        return new SshException(message.toString(), hint);
    }
}
