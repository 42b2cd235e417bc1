package dev.nvidb.ssh;

import dev.nvidb.error.ConfigException;
import dev.nvidb.ssh.ResolvedTarget.IdentityOrigin;
import dev.nvidb.ssh.SshOptions.Value;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Resolves a node as {@code ssh -G} resolves a host (OpenSSH 9.2): nvidb's own node settings
 * first, as ssh's command-line options; then the user's ssh config and the system-wide one,
 * first value obtained wins; a second pass when a {@code Match final} or CanonicalizeHostname
 * asks for one, with Host patterns matched against the final host name; then the defaults
 * (port 22, the local user, OpenSSH's default identity files). Each ProxyJump hop is resolved
 * as the {@code ssh} that ProxyJump starts resolves it: the first with its own config
 * (its own jump hosts come before it), each later one with the hops before it as its
 * {@code -J}. What nvidb cannot do as ssh would is refused with the file and line.
 */
public final class TargetResolver {

    /** The identity files ssh tries when none is configured, in ssh's order (ssh -G on OpenSSH 9.2). */
    static final List<String> DEFAULT_IDENTITIES = List.of("~/.ssh/id_rsa", "~/.ssh/id_ecdsa", "~/.ssh/id_ecdsa_sk",
            "~/.ssh/id_ed25519", "~/.ssh/id_ed25519_sk", "~/.ssh/id_xmss", "~/.ssh/id_dsa");

    /** Jump hosts of jump hosts this deep are taken for a loop (ssh itself would recurse until it fails). */
    private static final int MAX_JUMP_DEPTH = 8;
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final SshSettings settings;

    public TargetResolver(SshSettings settings) {
        this.settings = settings;
    }

    /** Resolves {@code target}; the ssh config files are read afresh on each call. */
    public ResolvedTarget resolve(SshTarget target) {
        LocalAccount account = LocalAccount.of(settings);
        SshOptions preset = new SshOptions();
        preset.user = target.username() == null ? null : new Value(target.username(), null);
        preset.port = target.port();
        if (target.proxyJump() != null) {
            JumpSpec.parse(target.proxyJump(), null, target.node());
            presetJump(preset, target.proxyJump());
        }
        ResolvedTarget resolved = resolve(account, target.node(), target.hostOrNode(), preset, target.auth(),
                target.password(), true, 0);
        if (target.identityFile() == null) {
            return resolved;
        }
        Map<Character, String> tokens = SshTokens.fileTokens(account, resolved.alias(), resolved.hostname(),
                resolved.port(), resolved.username(), null);
        String file = SshTokens.expand(target.identityFile().toString(), tokens, null, null, "identityfile");
        return resolved.withTargetIdentity(settings.home().resolve(file));
    }

    private ResolvedTarget resolve(LocalAccount account, String node, String alias, SshOptions options, SshAuth auth,
                                   String password, boolean withJumps, int depth) {
        Path user = settings.sshConfig();
        Path system = settings.systemSshConfig();
        boolean wantsFinalPass = new SshConfigPass(account, options, alias, alias, false).read(user, system);
        String hostname = options.hostName == null ? alias : SshTokens.hostName(options.hostName, alias);
        hostname = hostname.indexOf('%') >= 0 || (isAddress(hostname) && hostname.indexOf(':') < 0) ? hostname
                : hostname.toLowerCase(Locale.ROOT); // ssh 9.2 lower-cases neither addresses nor names with a '%'
        if (canonicalizes(options) || wantsFinalPass) {
            options.hostName = new Value(hostname, options.hostName == null ? null : options.hostName.at());
            new SshConfigPass(account, options, hostname, alias, true).read(user, system);
        }
        refuseWhatNvidbCannotDo(options);
        String username = options.user != null ? options.user.text() : account.user();
        int port = options.port != null ? options.port : 22;
        String keyAlias = options.hostKeyAlias == null ? null : options.hostKeyAlias.text().toLowerCase(Locale.ROOT);
        Map<Character, String> tokens = SshTokens.fileTokens(account, alias, hostname, port, username, keyAlias);
        List<Value> identities = options.identityFiles.isEmpty()
                ? DEFAULT_IDENTITIES.stream().map(text -> new Value(text, null)).toList() : options.identityFiles;
        List<Path> identityFiles = files(identities, account, tokens);
        List<Path> certificateFiles = files(options.certificateFiles, account, tokens);
        String jumpSpec = options.proxyJump == null || options.proxyJump.text().equalsIgnoreCase("none")
                ? null : options.proxyJump.text();
        List<JumpSpec> hops = jumpSpec == null ? List.of()
                : JumpSpec.parse(jumpSpec, options.proxyJump.at(), node);
        refuseLoop(node, hostname, port, username, hops, depth, options.proxyJump);
        List<ResolvedTarget> jumps = new ArrayList<>();
        for (int i = 0; withJumps && i < hops.size(); i++) {
            JumpSpec hop = hops.get(i);
            SshOptions hopOptions = new SshOptions();
            hopOptions.user = hop.user() == null ? null : new Value(hop.user(), null);
            hopOptions.port = hop.port();
            if (i > 0) {
                presetJump(hopOptions, String.join(",", hops.subList(0, i).stream().map(JumpSpec::text).toList()));
            }
            ResolvedTarget resolvedHop = resolve(account, hop.host(), hop.host(), hopOptions, SshAuth.AUTO, null,
                    i == 0, depth + 1);
            jumps.addAll(resolvedHop.jumps());
            jumps.add(resolvedHop.withoutJumps());
        }
        return new ResolvedTarget(node, alias, hostname, port, username, auth, identityFiles,
                options.identityFiles.isEmpty() ? IdentityOrigin.DEFAULT : IdentityOrigin.SSH_CONFIG, password, jumps,
                certificateFiles, SshOptions.yes(options.identitiesOnly), jumpSpec);
    }

    /** As ssh's {@code -J}: the jump hosts are given, so the config's ProxyJump and ProxyCommand are not obtained. */
    private static void presetJump(SshOptions options, String spec) {
        options.proxyJump = new Value(spec, null);
        options.proxyCommand = spec.strip().equalsIgnoreCase("none") ? null : new Value("none", null);
    }

    private List<Path> files(List<Value> values, LocalAccount account, Map<Character, String> tokens) {
        return values.stream().map(value -> SshTokens.file(value, account, tokens, settings.environment())).toList();
    }

    private static boolean canonicalizes(SshOptions options) {
        return options.canonicalize != null && !options.canonicalize.text().equalsIgnoreCase("no")
                && !options.canonicalize.text().equalsIgnoreCase("false");
    }

    private static void refuseWhatNvidbCannotDo(SshOptions options) {
        if (options.proxyCommand != null && !options.proxyCommand.text().equalsIgnoreCase("none")) {
            throw SshOptions.refusal(options.proxyCommand.at(), "ProxyCommand is not supported: nvidb connects "
                    + "itself and never runs commands from ssh config", "use ProxyJump for jump hosts, or "
                    + "'ProxyCommand none' in a block for this host");
        }
        if (canonicalizes(options) && options.canonicalDomains != null) {
            throw SshOptions.refusal(options.canonicalDomains.at(), "CanonicalizeHostname with CanonicalDomains is "
                    + "not supported: it needs DNS lookups nvidb does not make", "write the full host name in HostName");
        }
        if (options.permittedCnames != null && !options.permittedCnames.text().equalsIgnoreCase("none")) {
            throw SshOptions.refusal(options.permittedCnames.at(), "CanonicalizePermittedCNAMEs is not supported: it "
                    + "needs DNS lookups nvidb does not make", "write the full host name in HostName");
        }
    }

    private static void refuseLoop(String node, String hostname, int port, String user, List<JumpSpec> hops, int depth,
                                   Value at) {
        if (hops.isEmpty()) {
            return;
        }
        JumpSpec last = hops.get(hops.size() - 1);
        boolean self = last.host().equals(hostname) && (last.port() == null ? 22 : last.port()) == port
                && (last.user() == null ? user : last.user()).equals(user);
        if (self || depth >= MAX_JUMP_DEPTH) {
            String what = "ProxyJump of " + node + " loops (jump host " + last.host() + ")";
            throw at != null && at.at() != null ? SshOptions.refusal(at.at(), what, "a jump host must not jump through itself")
                    : new ConfigException(what, "a jump host must not jump through itself");
        }
    }

    private static boolean isAddress(String host) {
        return IPV4.matcher(host).matches() || (host.indexOf(':') >= 0 && host.matches("[0-9A-Fa-f:.%]+"));
    }
}
