package dev.nvidb.cli;

/** What the command edge knows about the terminal it prints to. */
final class Terminal {

    private static final int DEFAULT_WIDTH = 80;

    private Terminal() {
    }

    /** The width to lay tables out for: $COLUMNS when set, else 80. */
    static int width(Context context) {
        String columns = context.environment().get("COLUMNS");
        if (columns != null) {
            try {
                return Math.max(40, Integer.parseInt(columns.strip()));
            } catch (NumberFormatException e) {
                return DEFAULT_WIDTH;
            }
        }
        return DEFAULT_WIDTH;
    }
}
