package dev.nvidb.ssh;

import dev.nvidb.error.ConfigException;
import dev.nvidb.error.SshException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One OpenSSH client config file split into directives as OpenSSH's readconf.c splits it:
 * the keyword (case-insensitive, {@code Keyword value} or {@code Keyword=value}), then
 * arguments separated by blanks, in double or single quotes, with {@code \} escapes, up to a
 * {@code #} that starts a word. What the directives mean for a host is {@link SshConfigPass}'s
 * business. (MINA's own parser refuses any file with a {@code Match} block and expands
 * {@code ~} against the JVM's home, so it is not used.)
 */
public final class SshConfigFile {

    private static final int MAX_INCLUDE_DEPTH = 16;

    /** One line: the keyword in lower case, its arguments, the text after the keyword as written, and where. */
    record Directive(String keyword, List<String> args, String rest, Path file, int line) {

        String first() {
            return args.get(0);
        }
    }

    private final List<Directive> directives;

    private SshConfigFile(List<Directive> directives) {
        this.directives = directives;
    }

    /** Reads and splits {@code path}; a missing file has no directives. A line OpenSSH cannot split is refused. */
    public static SshConfigFile read(Path path) {
        List<String> lines;
        try {
            lines = Files.readAllLines(path);
        } catch (NoSuchFileException e) {
            return new SshConfigFile(List.of());
        } catch (java.nio.charset.MalformedInputException e) {
            throw new ConfigException(path + ":" + firstLineNotUtf8(path) + ": this ssh config is not UTF-8 text",
                    "nvidb reads ssh config files as UTF-8: convert it (iconv -t UTF-8) or remove the byte", e);
        } catch (IOException e) {
            throw new SshException("cannot read ssh config " + path + ": " + e.getMessage(), null, e);
        }
        List<Directive> directives = new ArrayList<>();
        for (int number = 1; number <= lines.size(); number++) {
            Directive directive = split(lines.get(number - 1), path, number);
            if (directive != null) {
                directives.add(directive);
            }
        }
        return new SshConfigFile(List.copyOf(directives));
    }

    List<Directive> directives() {
        return directives;
    }

    /**
     * The concrete host aliases of {@code path} for {@code nvidb import}, with the values their
     * own {@code Host} block sets (Includes followed, relative to the file's folder): wildcard
     * and negated patterns are skipped, and an alias that appears twice is listed once.
     */
    public static List<SshHostEntry> listHosts(Path path) {
        Map<String, SshHostEntry> byAlias = new LinkedHashMap<>();
        List<List<Directive>> blocks = new ArrayList<>();
        collectBlocks(path, path.toAbsolutePath().getParent(), blocks, 0);
        for (List<Directive> block : blocks) {
            Directive head = block.get(0);
            if (!head.keyword().equals("host")) {
                continue;
            }
            for (String pattern : head.args()) {
                if (isConcrete(pattern) && !byAlias.containsKey(pattern)) {
                    byAlias.put(pattern, entry(pattern, block));
                }
            }
        }
        return List.copyOf(byAlias.values());
    }

    private static void collectBlocks(Path file, Path dir, List<List<Directive>> blocks, int depth) {
        if (depth > MAX_INCLUDE_DEPTH) {
            throw new ConfigException(file + ": ssh config Include nested more than " + MAX_INCLUDE_DEPTH + " deep");
        }
        for (Directive directive : read(file).directives()) {
            switch (directive.keyword()) {
                case "host", "match" -> blocks.add(new ArrayList<>(List.of(directive)));
                case "include" -> directive.args().forEach(arg -> Glob.files(arg.startsWith("~/")
                        ? dir.getParent().resolve(arg.substring(2)) : dir.resolve(arg))
                        .forEach(included -> collectBlocks(included, dir, blocks, depth + 1)));
                default -> {
                    if (!blocks.isEmpty()) {
                        blocks.get(blocks.size() - 1).add(directive);
                    }
                }
            }
        }
    }

    private static SshHostEntry entry(String alias, List<Directive> block) {
        Map<String, Directive> first = new LinkedHashMap<>();
        List<String> identities = new ArrayList<>();
        for (Directive directive : block.subList(1, block.size())) {
            first.putIfAbsent(directive.keyword(), directive);
            if (directive.keyword().equals("identityfile")) {
                identities.add(directive.first());
            }
        }
        Directive port = first.get("port");
        return new SshHostEntry(alias, text(first.get("hostname")), text(first.get("user")),
                port == null ? null : SshOptions.port(port.first(), port), identities, text(first.get("proxyjump")));
    }

    private static String text(Directive directive) {
        return directive == null ? null : directive.first();
    }

    private static boolean isConcrete(String pattern) {
        return !pattern.startsWith("!") && pattern.indexOf('*') < 0 && pattern.indexOf('?') < 0;
    }

    /** Splits one line: null for blank lines and comments. */
    private static Directive split(String raw, Path file, int line) {
        String text = raw.strip();
        if (text.isEmpty() || text.startsWith("#")) {
            return null;
        }
        int end = 0;
        while (end < text.length() && " \t=\"'".indexOf(text.charAt(end)) < 0) {
            end++;
        }
        String keyword = text.substring(0, end).toLowerCase(Locale.ROOT);
        int at = skipBlanks(text, end);
        if (at < text.length() && text.charAt(at) == '=') {
            at = skipBlanks(text, at + 1);
        }
        String rest = text.substring(at);
        if (keyword.isEmpty() || rest.isEmpty()) {
            throw new ConfigException(file + ":" + line + ": no argument after keyword \"" + keyword + "\"",
                    "every ssh config line is 'Keyword value'; ssh refuses this file too");
        }
        return new Directive(keyword, arguments(rest, file, line), rest, file, line);
    }

    private static int skipBlanks(String text, int from) {
        int at = from;
        while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
            at++;
        }
        return at;
    }

    /** OpenSSH's argv_split: blanks separate, quotes group, {@code \} escapes a quote, a backslash or a blank. */
    private static List<String> arguments(String text, Path file, int line) {
        List<String> args = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            i = skipBlanks(text, i);
            if (i >= text.length() || text.charAt(i) == '#') {
                break;
            }
            StringBuilder arg = new StringBuilder();
            char quote = 0;
            for (; i < text.length(); i++) {
                char c = text.charAt(i);
                char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
                if (c == '\\' && (next == '\'' || next == '"' || next == '\\' || (quote == 0 && next == ' '))) {
                    arg.append(next);
                    i++;
                } else if (quote == 0 && (c == ' ' || c == '\t')) {
                    break;
                } else if (quote == 0 && (c == '"' || c == '\'')) {
                    quote = c;
                } else if (quote != 0 && c == quote) {
                    quote = 0;
                } else {
                    arg.append(c);
                }
            }
            if (quote != 0) {
                throw new ConfigException(file + ":" + line + ": invalid quotes", "close the quote; ssh refuses this file too");
            }
            args.add(arg.toString());
        }
        return args;
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
}
