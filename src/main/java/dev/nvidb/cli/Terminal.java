package dev.nvidb.cli;

import dev.nvidb.output.TextStyle;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * What the command edge knows about the terminal it prints to: the width to lay tables out
 * for and whether to colour them. A run whose output is not a terminal pays nothing: the
 * terminal is asked for its size only when there is one.
 */
final class Terminal {

    private static final int DEFAULT_WIDTH = 80;
    private static final int MIN_WIDTH = 40;

    private Terminal() {
    }

    /** The width to lay tables out for: $COLUMNS when set, else the terminal's own, else 80. */
    static int width(Context context) {
        return width(context.environment(), context.terminal(), Terminal::measure);
    }

    /**
     * The width for {@code environment} and a terminal: {@code $COLUMNS} when it is a number,
     * else on a terminal what {@code measure} says (0 when it cannot tell), else 80.
     */
    static int width(Map<String, String> environment, boolean terminal, IntSupplier measure) {
        String columns = environment.get("COLUMNS");
        if (columns != null) {
            try {
                return Math.max(MIN_WIDTH, Integer.parseInt(columns.strip()));
            } catch (NumberFormatException e) {
                // Not a number: as if unset.
            }
        }
        if (terminal) {
            int measured = measure.getAsInt();
            if (measured > 0) {
                return Math.max(MIN_WIDTH, measured);
            }
        }
        return DEFAULT_WIDTH;
    }

    /** Whether to colour: on a terminal only, never with {@code NO_COLOR} set (no-color.org) or TERM=dumb. */
    static boolean colour(Map<String, String> environment, boolean terminal) {
        String noColour = environment.get("NO_COLOR");
        return terminal && (noColour == null || noColour.isEmpty()) && !"dumb".equals(environment.get("TERM"));
    }

    /** The style for a command's text output; plain with {@code --json}, off a terminal, or with NO_COLOR. */
    static TextStyle style(Context context, boolean json) {
        return TextStyle.of(!json && colour(context.environment(), context.terminal()));
    }

    /** Columns of the controlling terminal, from {@code stty size}; 0 when it cannot tell. */
    private static int measure() {
        File tty = new File("/dev/tty");
        if (!tty.canRead()) {
            return 0;
        }
        try {
            Process stty = new ProcessBuilder("stty", "size").redirectInput(tty)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try (InputStream out = stty.getInputStream()) {
                String[] size = new String(out.readAllBytes(), StandardCharsets.US_ASCII).strip().split("\\s+");
                if (!stty.waitFor(1, TimeUnit.SECONDS) || stty.exitValue() != 0 || size.length != 2) {
                    return 0;
                }
                return Integer.parseInt(size[1]);
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }
}
