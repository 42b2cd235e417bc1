package dev.nvidb.ssh;

import dev.nvidb.error.ConfigException;
import dev.nvidb.ssh.SshConfigFile.Directive;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The values obtained so far for one host, as OpenSSH keeps them while it reads: for each
 * setting the first value obtained wins, IdentityFile and CertificateFile accumulate (an exact
 * repeat from the same side, the user's files or the system's, is dropped), and ProxyJump and ProxyCommand shut each other out (but {@code ProxyJump
 * none} leaves room for a later ProxyCommand, as in ssh 9.2). Each value remembers
 * the line that set it, for messages. Values are checked even in blocks that do not apply,
 * as ssh checks them.
 */
final class SshOptions {

    /** A value and the line that set it (null for nvidb's own node settings). */
    record Value(String text, Directive at) {
    }

    Value hostName;
    Value user;
    Integer port;
    Value proxyJump;
    Value proxyCommand;
    Value hostKeyAlias;
    Value identitiesOnly;
    Value canonicalize;
    Value canonicalDomains;
    Value permittedCnames;
    final List<Value> identityFiles = new ArrayList<>();
    final List<Value> certificateFiles = new ArrayList<>();
    private final java.util.Set<Value> userFiles = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    /**
     * Applies one directive of a block that is {@code active} (for this host) or not;
     * {@code userFile}: it comes from the user's file or one it includes.
     */
    void apply(Directive directive, boolean active, boolean userFile) {
        switch (directive.keyword()) {
            case "hostname" -> hostName = first(hostName, single(directive), active);
            case "user" -> user = first(user, single(directive), active);
            case "port" -> {
                Integer value = port(single(directive).text(), directive);
                if (active && port == null) {
                    port = value;
                }
            }
            case "identityfile" -> add(identityFiles, single(directive), active, userFile);
            case "certificatefile" -> add(certificateFiles, single(directive), active, userFile);
            case "identitiesonly" -> identitiesOnly = first(identitiesOnly,
                    choice(directive, "yes", "no", "true", "false"), active);
            case "hostkeyalias" -> hostKeyAlias = first(hostKeyAlias, single(directive), active);
            case "canonicalizehostname" -> canonicalize = first(canonicalize,
                    choice(directive, "yes", "no", "true", "false", "always"), active);
            case "canonicaldomains" -> canonicalDomains = first(canonicalDomains, whole(directive), active);
            case "canonicalizepermittedcnames" -> permittedCnames = first(permittedCnames, whole(directive), active);
            case "proxyjump" -> {
                Value value = single(directive, "Invalid ProxyJump \"" + directive.rest() + "\"");
                JumpSpec.check(value.text(), directive);
                if (active && proxyJump == null && proxyCommand == null) {
                    proxyJump = value;
                    // a jump host stands for "ProxyCommand ssh -W …", so a later ProxyCommand is not obtained
                    proxyCommand = value.text().equalsIgnoreCase("none") ? null : new Value("none", directive);
                }
            }
            case "proxycommand" -> proxyCommand = first(proxyCommand, whole(directive), active);
            default -> {
                // a setting nvidb does not use (ssh's other keywords are not checked)
            }
        }
    }

    /** True when {@code value} says yes: {@code yes} or {@code true}, any case. */
    static boolean yes(Value value) {
        return value != null && (value.text().equalsIgnoreCase("yes") || value.text().equalsIgnoreCase("true"));
    }

    /** a2port: a number from 1 to 65535. (ssh also takes a service name from /etc/services; nvidb does not.) */
    static int port(String text, Directive at) {
        try {
            int port = Integer.parseInt(text);
            if (port > 0 && port < 65536) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw refusal(at, "Port '" + text + "' is not a port number", "write a number from 1 to 65535");
    }

    /** The one-line refusal for {@code at}: {@code file:line: what}. */
    static ConfigException refusal(Directive at, String what, String hint) {
        return new ConfigException(at.file() + ":" + at.line() + ": " + what, hint);
    }

    private static Value first(Value current, Value candidate, boolean active) {
        return active && current == null ? candidate : current;
    }

    /** Adds {@code value} unless the same text came from the same side (user's files or system's) before. */
    private void add(List<Value> values, Value value, boolean active, boolean userFile) {
        if (active && values.stream().noneMatch(known -> known.text().equals(value.text())
                && userFile == userFiles.contains(known))) {
            values.add(value);
            if (userFile) {
                userFiles.add(value);
            }
        }
    }

    private static Value single(Directive directive) {
        return single(directive, "keyword " + directive.keyword() + " takes one argument, got " + directive.args().size());
    }

    private static Value single(Directive directive, String problem) {
        if (directive.args().size() != 1) {
            throw refusal(directive, problem, "quote a value that has blanks in it; ssh refuses this line too");
        }
        return new Value(directive.first(), directive);
    }

    private static Value whole(Directive directive) {
        return new Value(directive.rest(), directive);
    }

    private static Value choice(Directive directive, String... allowed) {
        Value value = single(directive);
        for (String option : allowed) {
            if (option.equals(value.text().toLowerCase(Locale.ROOT))) {
                return value;
            }
        }
        throw refusal(directive, directive.keyword() + " must be one of " + String.join(", ", allowed) + ", got '"
                + value.text() + "'", "ssh refuses this line too");
    }
}
