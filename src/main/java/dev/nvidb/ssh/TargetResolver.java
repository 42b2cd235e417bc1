package dev.nvidb.ssh;

import dev.nvidb.error.SshException;
import dev.nvidb.ssh.ResolvedTarget.IdentityOrigin;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Merges an {@link SshTarget} with the user's ssh config: values in the target win, then the
 * config's {@code Host} blocks, then defaults (the local user, port 22, the default identity
 * files). Jump hosts in {@code ProxyJump} are resolved the same way.
 */
public final class TargetResolver {

    private static final List<String> DEFAULT_IDENTITIES = List.of("id_ed25519", "id_ecdsa", "id_rsa");

    private final SshSettings settings;

    public TargetResolver(SshSettings settings) {
        this.settings = settings;
    }

    /** Resolves {@code target}; the ssh config file is read afresh on each call. */
    public ResolvedTarget resolve(SshTarget target) {
        SshConfigFile config = SshConfigFile.read(settings.sshConfig());
        String alias = target.hostOrNode();
        SshHostEntry entry = config.lookup(alias);
        String hostname = entry.hostName() != null ? expandHost(entry.hostName(), alias) : alias;
        int port = target.port() != null ? target.port() : entry.port() != null ? entry.port() : 22;
        String user = target.username() != null ? target.username()
                : entry.user() != null ? entry.user() : settings.localUser();
        String jumpSpec = target.proxyJump() != null ? target.proxyJump() : entry.proxyJump();
        List<ResolvedTarget> jumps = new ArrayList<>();
        if (jumpSpec != null && !jumpSpec.isBlank() && !jumpSpec.equalsIgnoreCase("none")) {
            for (String hop : jumpSpec.split(",")) {
                jumps.add(resolveJump(config, hop.strip(), target.node()));
            }
        }
        if (target.identityFile() != null) {
            Path file = expandPath(target.identityFile().toString(), hostname, user);
            return new ResolvedTarget(target.node(), alias, hostname, port, user, target.auth(), List.of(file),
                    IdentityOrigin.TARGET, target.password(), jumps);
        }
        IdentitySet identities = identities(entry, hostname, user);
        return new ResolvedTarget(target.node(), alias, hostname, port, user, target.auth(), identities.files(),
                identities.origin(), target.password(), jumps);
    }

    private ResolvedTarget resolveJump(SshConfigFile config, String spec, String node) {
        String user = null;
        String host = spec;
        Integer port = null;
        int at = host.lastIndexOf('@');
        if (at >= 0) {
            user = host.substring(0, at);
            host = host.substring(at + 1);
        }
        int colon = host.lastIndexOf(':');
        if (colon >= 0 && host.indexOf(':') == colon) {
            port = parseJumpPort(host.substring(colon + 1), spec, node);
            host = host.substring(0, colon);
        } else if (host.startsWith("[") && host.contains("]:")) {
            port = parseJumpPort(host.substring(host.indexOf("]:") + 2), spec, node);
            host = host.substring(1, host.indexOf("]:"));
        }
        SshHostEntry entry = config.lookup(host);
        String hostname = entry.hostName() != null ? expandHost(entry.hostName(), host) : host;
        int effectivePort = port != null ? port : entry.port() != null ? entry.port() : 22;
        String effectiveUser = user != null ? user : entry.user() != null ? entry.user() : settings.localUser();
        IdentitySet identities = identities(entry, hostname, effectiveUser);
        return new ResolvedTarget(host, host, hostname, effectivePort, effectiveUser, SshAuth.AUTO,
                identities.files(), identities.origin(), null, List.of());
    }

    private static int parseJumpPort(String text, String spec, String node) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new SshException(node + ": bad port in ProxyJump '" + spec + "'",
                    "write jump hosts as [user@]host[:port], separated by commas");
        }
    }

    private record IdentitySet(List<Path> files, IdentityOrigin origin) {
    }

    private IdentitySet identities(SshHostEntry entry, String hostname, String user) {
        if (!entry.identityFiles().isEmpty()) {
            List<Path> files = entry.identityFiles().stream()
                    .map(text -> expandPath(text, hostname, user)).distinct().toList();
            return new IdentitySet(files, IdentityOrigin.SSH_CONFIG);
        }
        Path sshDir = settings.home().resolve(".ssh");
        return new IdentitySet(DEFAULT_IDENTITIES.stream().map(sshDir::resolve).toList(), IdentityOrigin.DEFAULT);
    }

    private static String expandHost(String hostName, String alias) {
        return hostName.replace("%h", alias).replace("%%", "%");
    }

    /** Expands {@code ~} and the ssh_config tokens {@code %d %u %h %r %%} in a path. */
    Path expandPath(String text, String hostname, String remoteUser) {
        String home = settings.home().toString();
        String value = text.equals("~") ? home : text.startsWith("~/") ? home + text.substring(1) : text;
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c != '%' || i + 1 == value.length()) {
                out.append(c);
                continue;
            }
            char token = value.charAt(++i);
            switch (token) {
                case 'd' -> out.append(home);
                case 'u' -> out.append(settings.localUser());
                case 'h' -> out.append(hostname);
                case 'r' -> out.append(remoteUser);
                case '%' -> out.append('%');
                default -> out.append('%').append(token);
            }
        }
        Path path = Path.of(out.toString());
        return path.isAbsolute() ? path : settings.home().resolve(path);
    }
}
