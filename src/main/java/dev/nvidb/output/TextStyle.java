package dev.nvidb.output;

/**
 * Colour for the text renderers, or none. Renderers take one as an input, like the width, so
 * they stay pure; the command edge decides (a terminal, {@code NO_COLOR} unset, never with
 * {@code --json}). Colour is applied after a line is cut to the width, so it never counts.
 */
public final class TextStyle {

    /** No escape sequences at all. */
    public static final TextStyle PLAIN = new TextStyle(false);
    /** ANSI colours (SGR). */
    public static final TextStyle COLOUR = new TextStyle(true);

    private static final String RESET = "\u001b[0m";

    private final boolean on;

    private TextStyle(boolean on) {
        this.on = on;
    }

    public static TextStyle of(boolean colour) {
        return colour ? COLOUR : PLAIN;
    }

    public boolean on() {
        return on;
    }

    /** Something that went well: a node up, a job completed. */
    public String good(String text) {
        return paint("32", text);
    }

    /** Something that failed: a node down, a job failed or lost, an error. */
    public String bad(String text) {
        return paint("31", text);
    }

    /** Something to look at: a waiting or held job, a node without a driver, an alert. */
    public String warn(String text) {
        return paint("33", text);
    }

    /** Something under way: a running job. */
    public String busy(String text) {
        return paint("36", text);
    }

    /** Something over and of no concern: a cancelled job. */
    public String dim(String text) {
        return paint("2", text);
    }

    /** A job state as the tables show it ({@code pending}, {@code held}, {@code running?}, …), painted by meaning. */
    public String state(String key, String text) {
        switch (key) {
            case "completed":
                return good(text);
            case "failed":
            case "lost":
            case "timeout":
                return bad(text);
            case "running":
                return busy(text);
            case "pending":
            case "held":
            case "running?":
                return warn(text);
            case "cancelled":
                return dim(text);
            default:
                return text;
        }
    }

    /**
     * {@code line} with its characters {@code from} (inclusive) to {@code to} (exclusive)
     * painted as the state {@code key}; a line too short to hold them is left as it is.
     */
    public String stateAt(String line, int from, int to, String key) {
        if (!on || line.length() <= from) {
            return line;
        }
        int end = Math.min(to, line.length());
        return line.substring(0, from) + state(key, line.substring(from, end)) + line.substring(end);
    }

    private String paint(String sgr, String text) {
        return on && !text.isEmpty() ? "\u001b[" + sgr + "m" + text + RESET : text;
    }
}
