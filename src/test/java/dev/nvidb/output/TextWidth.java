package dev.nvidb.output;

import static org.junit.jupiter.api.Assertions.fail;

/** Checks that rendered text fits a terminal width, in characters (not bytes: "…" is one). */
final class TextWidth {

    private TextWidth() {
    }

    static void assertFits(int width, String text) {
        StringBuilder wide = new StringBuilder();
        for (String line : text.split("\n")) {
            int length = line.codePointCount(0, line.length());
            if (length > width) {
                wide.append("\n  ").append(length).append(": ").append(line);
            }
        }
        if (!wide.isEmpty()) {
            fail("lines wider than " + width + " columns:" + wide);
        }
    }
}
