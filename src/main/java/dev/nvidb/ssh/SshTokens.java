package dev.nvidb.ssh;

import dev.nvidb.error.ConfigException;
import dev.nvidb.ssh.SshConfigFile.Directive;
import dev.nvidb.ssh.SshOptions.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * ssh_config's expansions, as OpenSSH 9.2 makes them: {@code %h} and {@code %%} in HostName;
 * {@code ~}, then {@code %C %d %h %i %k %L %l %n %p %r %u %%} and {@code ${VAR}} in
 * IdentityFile and CertificateFile. An unknown token is refused, as ssh refuses it; so is a
 * path that stays relative (ssh would read it from whatever folder it runs in) and
 * {@code ~user} (another account's home).
 */
final class SshTokens {

    private SshTokens() {
    }

    /** HostName with {@code %h} as {@code alias}. */
    static String hostName(Value hostName, String alias) {
        return expand(hostName.text(), Map.of('h', alias), null, hostName.at(), "HostName");
    }

    /** {@code ~} or {@code ~/…} as the home folder. */
    static Path tilde(String text, LocalAccount account, Directive at) {
        if (text.equals("~")) {
            return account.home();
        }
        if (text.startsWith("~/")) {
            return account.home().resolve(text.substring(2));
        }
        throw SshOptions.refusal(at, "'" + text + "': nvidb does not expand ~user paths",
                "write the path out in full");
    }

    /** The tokens of an IdentityFile or CertificateFile for a connection to {@code hostname}. */
    static Map<Character, String> fileTokens(LocalAccount account, String alias, String hostname, int port,
                                             String user, String hostKeyAlias) {
        String portText = String.valueOf(port);
        return Map.ofEntries(Map.entry('C', sha1(account.hostname() + hostname + portText + user)),
                Map.entry('d', account.home().toString()), Map.entry('h', hostname), Map.entry('i', account.uid()),
                Map.entry('k', hostKeyAlias != null ? hostKeyAlias : alias), Map.entry('L', account.shortHostname()),
                Map.entry('l', account.hostname()), Map.entry('n', alias), Map.entry('p', portText),
                Map.entry('r', user), Map.entry('u', account.user()));
    }

    /** An IdentityFile or CertificateFile value as the absolute path ssh opens. */
    static Path file(Value value, LocalAccount account, Map<Character, String> tokens, Map<String, String> environment) {
        String text = value.text();
        String keyword = value.at() == null ? "IdentityFile" : value.at().keyword();
        String tilded = text.startsWith("~") ? tilde(text, account, value.at()).toString() : text;
        String expanded = expand(tilded, tokens, environment, value.at(), keyword);
        Path path = Path.of(expanded);
        if (!path.isAbsolute()) {
            throw SshOptions.refusal(value.at(), keyword + " '" + text + "' is a relative path: ssh reads "
                    + "it from the folder it runs in", "write it as ~/.ssh/NAME or an absolute path");
        }
        return path;
    }

    /** {@code text} with {@code tokens} (and {@code ${VAR}} from {@code environment} unless null) expanded. */
    static String expand(String text, Map<Character, String> tokens, Map<String, String> environment,
                                 Directive at, String keyword) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (environment != null && c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '{') {
                int end = text.indexOf('}', i + 2);
                String name = end < 0 ? "" : text.substring(i + 2, end);
                String value = environment.get(name);
                if (value == null) {
                    throw refusal(at, keyword, text, end < 0 || name.isEmpty() ? "a bad ${…}"
                            : "${" + name + "}, which is not set");
                }
                out.append(value);
                i = end;
            } else if (c != '%') {
                out.append(c);
            } else if (i + 1 == text.length()) {
                throw refusal(at, keyword, text, "a '%' at the end");
            } else if (text.charAt(++i) == '%') {
                out.append('%');
            } else if (tokens.containsKey(text.charAt(i))) {
                out.append(tokens.get(text.charAt(i)));
            } else {
                throw refusal(at, keyword, text, "the unknown token %" + text.charAt(i));
            }
        }
        return out.toString();
    }

    private static ConfigException refusal(Directive at, String keyword, String text, String problem) {
        String what = keyword + " '" + text + "' has " + problem;
        String hint = "see TOKENS in man ssh_config; ssh refuses it too";
        return at == null ? new ConfigException(what, hint) : SshOptions.refusal(at, what, hint);
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-1", e);
        }
    }
}
