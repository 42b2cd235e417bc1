package dev.nvidb.ssh;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The two kinds of pattern in ssh config: glob(3) over file names for {@code Include} (POSIX
 * {@code * ? [...]} in any component, a leading dot matched only by a leading dot, results in
 * byte order) and OpenSSH's host patterns ({@code *} and {@code ?} only, pattern lists with
 * {@code !} negations, as match.c has them).
 */
final class Glob {

    private Glob() {
    }

    /** The existing files {@code pattern} (absolute) names, sorted; none when nothing matches. */
    static List<Path> files(Path pattern) {
        List<Path> found = new ArrayList<>(List.of(pattern.getRoot()));
        for (Path part : pattern) {
            String name = part.toString();
            List<Path> next = new ArrayList<>();
            for (Path dir : found) {
                if (!isWild(name)) {
                    next.add(dir.resolve(name));
                    continue;
                }
                Pattern regex = fileRegex(name);
                try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                    for (Path entry : entries) {
                        String entryName = entry.getFileName().toString();
                        if ((!entryName.startsWith(".") || name.startsWith(".")) && regex.matcher(entryName).matches()) {
                            next.add(entry);
                        }
                    }
                } catch (IOException e) {
                    // an unreadable or missing folder matches nothing, as for glob(3)
                }
            }
            next.sort(null);
            found = next;
        }
        return found.stream().filter(Files::exists).toList();
    }

    private static boolean isWild(String name) {
        return name.indexOf('*') >= 0 || name.indexOf('?') >= 0 || name.indexOf('[') >= 0;
    }

    private static Pattern fileRegex(String glob) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            int close = c == '[' ? glob.indexOf(']', i + 2) : -1;
            if (c == '*') {
                regex.append(".*");
            } else if (c == '?') {
                regex.append('.');
            } else if (close > 0) {
                String set = glob.substring(i + 1, close);
                boolean negated = set.startsWith("!");
                regex.append('[').append(negated ? "^" : "")
                        .append(set.substring(negated ? 1 : 0).replace("\\", "\\\\").replace("[", "\\[")).append(']');
                i = close;
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }

    /** match_pattern: {@code *} any run, {@code ?} one character, case as given. */
    static boolean host(String text, String pattern) {
        return host(text, 0, pattern, 0);
    }

    private static boolean host(String text, int t, String pattern, int p) {
        while (p < pattern.length()) {
            char c = pattern.charAt(p);
            if (c == '*') {
                for (int from = t; from <= text.length(); from++) {
                    if (host(text, from, pattern, p + 1)) {
                        return true;
                    }
                }
                return false;
            }
            if (t >= text.length() || (c != '?' && c != text.charAt(t))) {
                return false;
            }
            t++;
            p++;
        }
        return t == text.length();
    }

    /**
     * match_pattern_list: true when some pattern of the comma-separated {@code list} matches and
     * no negated one does ({@code lower}: the list is compared in lower case, for host names).
     */
    static boolean list(String text, String list, boolean lower) {
        boolean matched = false;
        for (String item : list.split(",", -1)) {
            String pattern = lower ? item.toLowerCase(java.util.Locale.ROOT) : item;
            boolean negated = pattern.startsWith("!");
            if (host(text, negated ? pattern.substring(1) : pattern)) {
                if (negated) {
                    return false;
                }
                matched = true;
            }
        }
        return matched;
    }
}
