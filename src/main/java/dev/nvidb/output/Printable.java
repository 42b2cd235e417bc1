package dev.nvidb.output;

/**
 * Text that users, jobs and nodes control (names, notes, tags, progress lines, pending reasons,
 * errors, node names, alert log tails, event details) made safe for a terminal: every control
 * character is written as an escape, so a newline cannot add a fake row to a table and an
 * escape sequence cannot reach the terminal. C0 controls, DEL and C1 controls become
 * {@code \n}, {@code \t}, {@code \r} or {@code \x1b}-style escapes ({@code \u009b} for C1), as do
 * line and paragraph separators, bidirectional overrides and unpaired surrogates; every other
 * character, any printable Unicode text included, is kept as it is. Backslashes are not
 * doubled: this is for reading, and JSON output (Jackson's escaping) stays exact. Pure.
 */
public final class Printable {

    private Printable() {
    }

    /** {@code text} on one line, every control escaped; null stays null. */
    public static String of(String text) {
        return escape(text, false);
    }

    /**
     * {@code text} keeping its line breaks ({@code \n}) for a block that shows several lines
     * (a command, a note, a log tail under a label), every other control escaped.
     */
    public static String lines(String text) {
        return escape(text, true);
    }

    private static String escape(String text, boolean keepNewlines) {
        if (text == null || clean(text, keepNewlines)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int at = 0; at < text.length(); ) {
            int point = text.codePointAt(at);
            int length = Character.charCount(point);
            if (point == '\n' && keepNewlines) {
                out.append('\n');
            } else if (unsafe(point)) {
                out.append(escaped(point));
            } else {
                out.appendCodePoint(point);
            }
            at += length;
        }
        return out.toString();
    }

    private static boolean clean(String text, boolean keepNewlines) {
        for (int at = 0; at < text.length(); ) {
            int point = text.codePointAt(at);
            if (unsafe(point) && !(point == '\n' && keepNewlines)) {
                return false;
            }
            at += Character.charCount(point);
        }
        return true;
    }

    private static boolean unsafe(int point) {
        return point < 0x20 || (point >= 0x7f && point <= 0x9f)
                || point == 0x2028 || point == 0x2029                 // line and paragraph separators
                || (point >= 0x202a && point <= 0x202e)               // bidirectional embeddings and overrides
                || (point >= 0x2066 && point <= 0x2069)               // bidirectional isolates
                || (point >= 0xd800 && point <= 0xdfff);              // a surrogate without its pair
    }

    private static String escaped(int point) {
        return switch (point) {
            case '\n' -> "\\n";
            case '\t' -> "\\t";
            case '\r' -> "\\r";
            default -> point <= 0x7f ? String.format("\\x%02x", point) : String.format("\\u%04x", point);
        };
    }
}
