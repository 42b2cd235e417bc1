package dev.nvidb.cli;

import java.util.List;
import java.util.regex.Pattern;

/** Joins command words typed after {@code --} back into one shell command line, quoting where needed. */
final class ShellWords {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    private ShellWords() {
    }

    static String join(List<String> words) {
        StringBuilder line = new StringBuilder();
        for (String word : words) {
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(quote(word));
        }
        return line.toString();
    }

    /** The word as the shell must see it to get it back unchanged. */
    static String quote(String word) {
        if (!word.isEmpty() && PLAIN.matcher(word).matches()) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
