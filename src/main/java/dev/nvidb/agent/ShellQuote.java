package dev.nvidb.agent;

import dev.nvidb.error.UsageException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The one shell quoter: a string becomes a POSIX shell word ({@code sh}, {@code bash}) that
 * gives the string back exactly, with nothing in it expanded ({@code $}, backticks, globs,
 * newlines, quotes, any bytes). Single quotes, with each {@code '} written as {@code '\''}.
 * A NUL byte cannot be passed through a shell and is refused.
 */
public final class ShellQuote {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    private ShellQuote() {
    }

    /** Always single-quoted (for rendered scripts, where every user value looks the same). */
    public static String quote(String value) {
        if (value.indexOf('\0') >= 0) {
            throw new UsageException("a job's name, environment, working directory or command cannot contain a NUL byte");
        }
        return "'" + value.replace("'", "'\\''") + "'";
    }

    /** As {@link #quote}, but a word of only plain characters stays as it is (for command lines people read). */
    public static String word(String value) {
        return !value.isEmpty() && PLAIN.matcher(value).matches() ? value : quote(value);
    }

    /** Words joined into one command line that splits back into exactly these words. */
    public static String join(List<String> words) {
        StringBuilder line = new StringBuilder();
        for (String word : words) {
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word(word));
        }
        return line.toString();
    }
}
