package dev.nvidb.ssh;

import dev.nvidb.error.ConfigException;
import dev.nvidb.error.SshException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * An OpenSSH client config file ({@code ~/.ssh/config}), read for the settings nvidb uses:
 * HostName, User, Port, IdentityFile and ProxyJump. Values merge as in OpenSSH: the first
 * value found in a matching block wins, IdentityFile accumulates. {@code Include} is followed;
 * {@code Match} blocks cannot be evaluated here and are skipped. (MINA's own parser refuses
 * any file with a {@code Match} block and expands {@code ~} against the JVM's home, so it is
 * not used.)
 */
public final class SshConfigFile {

    private static final int MAX_INCLUDE_DEPTH = 16;

    /** A {@code Host} or {@code Match} block and the values it sets, keyword in lower case. */
    private record Block(List<String> patterns, boolean isMatch, Map<String, List<String>> values) {

        boolean matches(String host) {
            if (isMatch) {
                return false;
            }
            boolean positive = false;
            for (String pattern : patterns) {
                boolean negated = pattern.startsWith("!");
                if (glob(negated ? pattern.substring(1) : pattern).matcher(host).matches()) {
                    if (negated) {
                        return false;
                    }
                    positive = true;
                }
            }
            return positive;
        }

        String first(String keyword) {
            List<String> list = values.get(keyword);
            return list == null || list.isEmpty() ? null : list.get(0);
        }
    }

    private final Path path;
    private final List<Block> blocks;

    private SshConfigFile(Path path, List<Block> blocks) {
        this.path = path;
        this.blocks = blocks;
    }

    /** Reads {@code path}; a missing file is an empty config. */
    public static SshConfigFile read(Path path) {
        List<Block> blocks = new ArrayList<>();
        blocks.add(new Block(List.of("*"), false, new LinkedHashMap<>()));
        parseInto(path, path.toAbsolutePath().getParent(), blocks, 0);
        return new SshConfigFile(path, blocks);
    }

    /**
     * The concrete host aliases of {@code path} for {@code nvidb import}: wildcard and negated
     * patterns are skipped, and an alias that appears twice is listed once (its first block).
     */
    public static List<SshHostEntry> listHosts(Path path) {
        return read(path).listHosts();
    }

    /** See {@link #listHosts(Path)}. */
    public List<SshHostEntry> listHosts() {
        Map<String, SshHostEntry> byAlias = new LinkedHashMap<>();
        for (Block block : blocks) {
            if (block.isMatch()) {
                continue;
            }
            for (String pattern : block.patterns()) {
                if (isConcrete(pattern) && !byAlias.containsKey(pattern)) {
                    byAlias.put(pattern, entry(pattern, List.of(block)));
                }
            }
        }
        return List.copyOf(byAlias.values());
    }

    /** The merged settings for {@code host} from every block that matches it, as written. */
    public SshHostEntry lookup(String host) {
        List<Block> matching = blocks.stream().filter(b -> b.matches(host.toLowerCase(Locale.ROOT))).toList();
        return entry(host, matching);
    }

    private SshHostEntry entry(String alias, List<Block> matching) {
        String hostName = null;
        String user = null;
        String port = null;
        String jump = null;
        List<String> identities = new ArrayList<>();
        for (Block block : matching) {
            hostName = hostName != null ? hostName : block.first("hostname");
            user = user != null ? user : block.first("user");
            port = port != null ? port : block.first("port");
            jump = jump != null ? jump : block.first("proxyjump");
            identities.addAll(block.values().getOrDefault("identityfile", List.of()));
        }
        return new SshHostEntry(alias, hostName, user, port == null ? null : parsePort(port), identities, jump);
    }

    private Integer parsePort(String value) {
        try {
            int port = Integer.parseInt(value);
            if (port > 0 && port < 65536) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new SshException(path + ": Port '" + value + "' is not a port number", "fix the ssh config file");
    }

    private static boolean isConcrete(String pattern) {
        return !pattern.startsWith("!") && pattern.indexOf('*') < 0 && pattern.indexOf('?') < 0;
    }

    /** The number of the first line of {@code file} that is not UTF-8 (the file was just read). */
    private static int firstLineNotUtf8(Path file) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            int line = 1;
            int start = 0;
            for (int at = 0; at <= bytes.length; at++) {
                if (at == bytes.length || bytes[at] == '\n') {
                    try {
                        java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                                .decode(java.nio.ByteBuffer.wrap(bytes, start, at - start));
                    } catch (java.nio.charset.CharacterCodingException e) {
                        return line;
                    }
                    line++;
                    start = at + 1;
                }
            }
            return line;
        } catch (IOException e) {
            return 1;
        }
    }

    private static void parseInto(Path file, Path sshDir, List<Block> blocks, int depth) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            return;
        } catch (java.nio.charset.MalformedInputException e) {
            throw new ConfigException(file + ":" + firstLineNotUtf8(file) + ": this ssh config is not UTF-8 text",
                    "nvidb reads ssh config files as UTF-8: convert it (iconv -t UTF-8) or remove the byte", e);
        } catch (IOException e) {
            throw new SshException("cannot read ssh config " + file + ": " + e.getMessage(), null, e);
        }
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s*=\\s*|\\s+", 2);
            String keyword = parts[0].toLowerCase(Locale.ROOT);
            List<String> args = parts.length > 1 ? arguments(parts[1]) : List.of();
            switch (keyword) {
                case "host" -> blocks.add(new Block(args, false, new LinkedHashMap<>()));
                case "match" -> blocks.add(new Block(List.of(), true, new LinkedHashMap<>()));
                case "include" -> include(args, sshDir, blocks, depth);
                default -> blocks.get(blocks.size() - 1).values()
                        .computeIfAbsent(keyword, k -> new ArrayList<>()).add(String.join(" ", args));
            }
        }
    }

    private static void include(List<String> args, Path sshDir, List<Block> blocks, int depth) {
        if (depth >= MAX_INCLUDE_DEPTH) {
            throw new SshException("ssh config Include nested more than " + MAX_INCLUDE_DEPTH + " deep");
        }
        Path home = sshDir.getParent();
        for (String arg : args) {
            Path pattern = arg.startsWith("~/") && home != null ? home.resolve(arg.substring(2)) : sshDir.resolve(arg);
            for (Path file : expandGlob(pattern)) {
                parseInto(file, sshDir, blocks, depth + 1);
            }
        }
    }

    private static List<Path> expandGlob(Path pattern) {
        String name = pattern.getFileName().toString();
        if (name.indexOf('*') < 0 && name.indexOf('?') < 0) {
            return List.of(pattern);
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(pattern.getParent(), name)) {
            dir.forEach(files::add);
        } catch (IOException e) {
            return List.of();
        }
        files.sort(null);
        return files;
    }

    private static List<String> arguments(String text) {
        List<String> args = new ArrayList<>();
        var matcher = Pattern.compile("\"([^\"]*)\"|(\\S+)").matcher(text);
        while (matcher.find()) {
            args.add(matcher.group(1) != null ? matcher.group(1) : matcher.group(2));
        }
        return args;
    }

    private static Pattern glob(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toLowerCase(Locale.ROOT).toCharArray()) {
            regex.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(regex.toString());
    }
}
