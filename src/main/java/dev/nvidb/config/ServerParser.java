package dev.nvidb.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/** Reads a {@code servers:} list into {@link ServerConfig}s, one strict section per server. */
final class ServerParser {

    private static final String KEY_HINT = "valid keys: " + String.join(", ", ConfigSchema.SERVER_KEYS)
            + "; see config.example.yml";
    /** A host, alias or user name: no spaces or control characters, and no leading '-' that ssh would read as an option. */
    private static final Pattern NAME = Pattern.compile("[^\\s\\p{Cntrl}-][^\\s\\p{Cntrl}]*");
    private static final Pattern HOP = Pattern.compile("(?:[^\\s\\p{Cntrl}@,-][^\\s\\p{Cntrl}@,]*@)?"
            + "(?:\\[[0-9A-Fa-f:.]+]|[^\\s\\p{Cntrl}@,:\\[\\]-][^\\s\\p{Cntrl}@,:\\[\\]]*)(?::[0-9]{1,5})?");

    private final YamlDocument document;
    private final NvidbHome home;
    private final List<String> warnings;

    ServerParser(YamlDocument document, NvidbHome home, List<String> warnings) {
        this.document = document;
        this.home = home;
        this.warnings = warnings;
    }

    /** Parses every item and rejects two servers with the same name. */
    List<ServerConfig> parse(List<Node> items) {
        List<ServerConfig> servers = new ArrayList<>();
        Map<String, Node> seen = new HashMap<>();
        for (int i = 0; i < items.size(); i++) {
            Node item = items.get(i);
            ServerConfig server = parseOne(item, i + 1);
            Node first = seen.putIfAbsent(server.name(), item);
            if (first != null) {
                throw document.error(item, "duplicate server name '" + server.name() + "' (also at line "
                        + YamlDocument.line(first) + ")", "server names (nickname, else hostname) must be unique; "
                        + "give one of them a different nickname");
            }
            servers.add(server);
        }
        return servers;
    }

    private ServerConfig parseOne(Node item, int position) {
        if (!(item instanceof MappingNode mapping)) {
            throw document.error(item, "server #" + position + " must be a mapping with at least 'hostname', got "
                    + YamlSection.describe(item), "write it as '- hostname: gpu-a.example.com'");
        }
        String label = label(mapping, position);
        YamlSection section = new YamlSection(document, mapping, "in " + label, ConfigSchema.SERVER_KEYS, KEY_HINT);
        String hostname = section.string("hostname", null);
        if (hostname == null || hostname.isBlank()) {
            throw document.error(mapping, label + " has no 'hostname'",
                    "every server needs 'hostname: <host name, address or ssh alias>'");
        }
        checkName(section, "hostname", hostname, "a host name, address or ssh alias");
        String username = section.string("username", null);
        checkName(section, "username", username, "a user name");
        String nickname = section.string("nickname", null);
        if (nickname != null && (nickname.isBlank() || nickname.chars().anyMatch(Character::isISOControl))) {
            throw section.error(section.value("nickname").orElseThrow(),
                    "'nickname' must be a non-empty single-line name, got " + describe(section, "nickname"), null);
        }
        String password = section.string("password", null);
        ServerConfig server = new ServerConfig(hostname, section.integer("port", 1, 65535, null), username, nickname,
                auth(section), identityFile(section), password, proxyJump(section), GpuList.read(section),
                slurm(section, label), claimsDir(section));
        if (password != null) {
            warnPassword(section, server.name());
        }
        return server;
    }

    /** {@code claims_dir}: an absolute path on the node, or {@code ~/...}; null for the default. */
    private static String claimsDir(YamlSection section) {
        String dir = section.string("claims_dir", null);
        if (dir != null && (dir.isBlank() || !(dir.startsWith("/") || dir.startsWith("~/"))
                || dir.chars().anyMatch(Character::isISOControl))) {
            throw section.error(section.value("claims_dir").orElseThrow(),
                    "'claims_dir' must be an absolute path on the node (or start with ~/), got " + describe(section, "claims_dir"),
                    "the default is /tmp/nvidb-claims; every queue sharing the node must name the same folder");
        }
        return dir;
    }

    private static String label(MappingNode mapping, int position) {
        String name = null;
        for (NodeTuple tuple : mapping.getValue()) {
            if (tuple.getKeyNode() instanceof ScalarNode key && tuple.getValueNode() instanceof ScalarNode value
                    && !YamlSection.isNull(value)) {
                if (key.getValue().equals("nickname") || (key.getValue().equals("hostname") && name == null)) {
                    name = value.getValue();
                }
            }
        }
        return name != null ? "server '" + name + "'" : "server #" + position;
    }

    /** The Slurm part of a {@code kind: slurm} server (partition required), or null for a plain server. */
    private dev.nvidb.model.SlurmTarget slurm(YamlSection section, String label) {
        String kind = section.string("kind", "ssh");
        List<String> slurmKeys = List.of("partition", "account", "qos", "time_limit", "slurm_bin");
        if (kind.equals("ssh")) {
            for (String key : slurmKeys) {
                if (section.has(key)) {
                    throw section.error(section.value(key).orElseThrow(), "'" + key + "' is a key of a Slurm server, but "
                            + label + " is not one", "add 'kind: slurm' to submit to a Slurm partition through this host");
                }
            }
            return null;
        }
        if (!kind.equals("slurm")) {
            throw section.error(section.value("kind").orElseThrow(), "'kind' must be ssh or slurm, got "
                    + describe(section, "kind"), "leave it out for a plain server");
        }
        String partition = section.string("partition", null);
        if (partition == null || partition.isBlank()) {
            throw section.error(section.value("kind").orElseThrow(), label + " is a Slurm server without 'partition'",
                    "name the partition its jobs go to: 'partition: gpu'");
        }
        for (String key : slurmKeys) {
            String value = section.string(key, null);
            if (value != null && (value.isBlank() || value.startsWith("-") || value.chars().anyMatch(
                    c -> Character.isWhitespace(c) || Character.isISOControl(c)))) {
                throw section.error(section.value(key).orElseThrow(), "'" + key + "' must be one word that does not"
                        + " start with '-', got " + describe(section, key), null);
            }
        }
        return new dev.nvidb.model.SlurmTarget(partition, section.string("account", null), section.string("qos", null),
                section.string("time_limit", null), section.string("slurm_bin", null));
    }

    private static AuthMethod auth(YamlSection section) {
        String text = section.string("auth", null);
        if (text == null) {
            return AuthMethod.AUTO;
        }
        return AuthMethod.parse(text).orElseThrow(() -> section.error(section.value("auth").orElseThrow(),
                "'auth' must be one of " + String.join(", ", AuthMethod.keys()) + ", got " + describe(section, "auth"),
                "use auto unless a server needs one method"));
    }

    private Path identityFile(YamlSection section) {
        String text = section.string("identityfile", null);
        if (text != null && text.isBlank()) {
            throw section.error(section.value("identityfile").orElseThrow(), "'identityfile' must be a path, got \"\"",
                    "remove the key to use the keys from ~/.ssh/config and ~/.ssh/id_*");
        }
        return text == null ? null : home.expand(text);
    }

    private static String proxyJump(YamlSection section) {
        String text = section.string("proxyjump", null);
        if (text == null) {
            return null;
        }
        for (String hop : text.split(",", -1)) {
            if (!HOP.matcher(hop.strip()).matches()) {
                throw section.error(section.value("proxyjump").orElseThrow(),
                        "'proxyjump' must be a host or a comma-separated chain of [user@]host[:port], got "
                                + describe(section, "proxyjump"), "for example: login-a,alice@login-b:2222");
            }
        }
        return text;
    }

    static void checkName(YamlSection section, String key, String value, String what) {
        if (value != null && !NAME.matcher(value).matches()) {
            throw section.error(section.value(key).orElseThrow(), "'" + key + "' must be " + what
                    + " without spaces or a leading '-', got " + describe(section, key), null);
        }
    }

    private static String describe(YamlSection section, String key) {
        return YamlSection.describe(section.value(key).orElseThrow());
    }

    private void warnPassword(YamlSection section, String name) {
        StringBuilder warning = new StringBuilder(document.where(section.keyNode("password")))
                .append(": a password is stored in plain text for '").append(name)
                .append("'; prefer key or agent auth");
        if (readableByOthers(document.file())) {
            warning.append("; the file is readable by group or others (chmod 600 ")
                    .append(document.displayName()).append(')');
        }
        warnings.add(warning.toString());
    }

    private static boolean readableByOthers(Path file) {
        if (file == null) {
            return false;
        }
        try {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
            return permissions.contains(PosixFilePermission.GROUP_READ)
                    || permissions.contains(PosixFilePermission.OTHERS_READ);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
