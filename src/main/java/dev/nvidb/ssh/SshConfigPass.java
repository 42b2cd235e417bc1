package dev.nvidb.ssh;

import dev.nvidb.error.ConfigException;
import dev.nvidb.ssh.SshConfigFile.Directive;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One pass of OpenSSH's readconf.c over the user's file, then the system-wide one, for one
 * host: {@code Host} lines match the host (the alias on the first pass, the final host name on
 * the second) case-sensitively; {@code Match} criteria see the values obtained so far; an
 * {@code Include} (relative to {@code ~/.ssh} in the user's file, to the system file's folder
 * in the system one) is read where it stands, and what it switches on or off ends with it. A
 * {@code Match exec} whose answer would matter is refused: nvidb never runs commands from ssh
 * config.
 */
final class SshConfigPass {

    private static final int MAX_INCLUDE_DEPTH = 16;

    private final LocalAccount account;
    private final SshOptions options;
    private final String host;
    private final String originalHost;
    private final boolean finalPass;
    private final Map<Path, SshConfigFile> files = new HashMap<>();
    private Path systemDir;
    private boolean active;
    private boolean wantsFinalPass;

    SshConfigPass(LocalAccount account, SshOptions options, String host, String originalHost, boolean finalPass) {
        this.account = account;
        this.options = options;
        this.host = host;
        this.originalHost = originalHost;
        this.finalPass = finalPass;
    }

    /** Reads the user's file then the system-wide one; true when a {@code Match final} asks for a second pass. */
    boolean read(Path userFile, Path systemFile) {
        systemDir = systemFile.toAbsolutePath().getParent();
        active = true;
        read(userFile, true, false, 0);
        active = true;
        read(systemFile, false, false, 0);
        return wantsFinalPass;
    }

    private void read(Path file, boolean user, boolean neverMatch, int depth) {
        SshConfigFile config = files.computeIfAbsent(file, SshConfigFile::read);
        for (Directive directive : config.directives()) {
            switch (directive.keyword()) {
                case "host" -> active = !neverMatch && hostMatches(directive.args());
                case "match" -> active = match(directive, neverMatch) && !neverMatch;
                case "include" -> include(directive, user, neverMatch, depth);
                default -> options.apply(directive, active, user);
            }
        }
    }

    private boolean hostMatches(List<String> patterns) {
        boolean matched = false;
        for (String pattern : patterns) {
            boolean negated = pattern.startsWith("!");
            if (Glob.host(host, negated ? pattern.substring(1) : pattern)) {
                if (negated) {
                    return false;
                }
                matched = true;
            }
        }
        return matched;
    }

    /** match_cfg_line: every criterion must hold; {@code all} alone or after one criterion. */
    private boolean match(Directive directive, boolean neverMatch) {
        List<String> args = directive.args();
        boolean result = true;
        int attributes = 0;
        boolean exec = false;
        for (int i = 0; i < args.size(); i++) {
            boolean negate = args.get(i).startsWith("!");
            String attribute = (negate ? args.get(i).substring(1) : args.get(i)).toLowerCase(Locale.ROOT);
            if (attribute.equals("all")) {
                if (attributes > 1 || i + 1 < args.size()) {
                    throw badMatch(directive, "'" + args.get(i) + "' cannot be combined with other Match attributes");
                }
                return result && !negate;
            }
            attributes++;
            if (attribute.equals("canonical") || attribute.equals("final")) {
                wantsFinalPass |= attribute.equals("final") && !finalPass;
                result &= finalPass != negate;
                continue;
            }
            if (i + 1 >= args.size()) {
                throw badMatch(directive, "Missing Match criteria for " + attribute);
            }
            String patterns = args.get(++i);
            boolean matched = switch (attribute) {
                case "host" -> Glob.list(matchHost().toLowerCase(Locale.ROOT), patterns, true);
                case "originalhost" -> Glob.list(originalHost.toLowerCase(Locale.ROOT), patterns, true);
                case "user" -> Glob.list(options.user != null ? options.user.text() : account.user(), patterns, false);
                case "localuser" -> Glob.list(account.user(), patterns, false);
                case "exec" -> {
                    exec = true;
                    yield !negate;
                }
                default -> throw badMatch(directive, "Unsupported Match attribute " + attribute);
            };
            result &= matched != negate;
        }
        if (attributes == 0) {
            throw badMatch(directive, "One or more attributes required for Match");
        }
        if (exec && result && !neverMatch) {
            throw SshOptions.refusal(directive, "Match exec is not supported: nvidb never runs commands from ssh config",
                    "match on host, originalhost, user or localuser instead, or put such a criterion before exec "
                            + "so the block cannot apply to nvidb's nodes");
        }
        return result;
    }

    /** The host {@code Match host} sees: the final name on the second pass, else HostName as obtained so far. */
    private String matchHost() {
        if (finalPass) {
            return options.hostName.text();
        }
        return options.hostName == null ? host : SshTokens.hostName(options.hostName, host);
    }

    private static ConfigException badMatch(Directive at, String problem) {
        return SshOptions.refusal(at, "Bad Match condition: " + problem, "ssh refuses this line too; see man ssh_config");
    }

    private void include(Directive directive, boolean user, boolean neverMatch, int depth) {
        if (depth >= MAX_INCLUDE_DEPTH) {
            throw SshOptions.refusal(directive, "Include nested more than " + MAX_INCLUDE_DEPTH + " deep", null);
        }
        for (String arg : directive.args()) {
            Path pattern;
            if (arg.startsWith("~")) {
                if (!user) {
                    throw SshOptions.refusal(directive, "bad include path " + arg,
                            "the system-wide file cannot Include from ~ (ssh refuses it too)");
                }
                pattern = SshTokens.tilde(arg, account, directive);
            } else {
                Path base = user ? account.home().resolve(".ssh") : systemDir;
                pattern = base.resolve(arg);
            }
            boolean wasActive = active;
            for (Path file : Glob.files(pattern)) {
                read(file, user, neverMatch || !wasActive, depth + 1);
                active = wasActive;
            }
        }
    }
}
