package dev.nvidb.tui;

import java.util.List;
import java.util.Optional;
import org.jline.utils.AttributedString;

/**
 * What a screen draws at one moment: exactly {@code height} lines of at most {@code width}
 * columns, and the clickable regions on them. Renderers build frames from a view model and
 * nothing else, so a frame can be tested as text at any size.
 *
 * @param lines the rows, top to bottom
 * @param hits  the clickable regions; a later region wins where two overlap
 */
public record Frame(List<AttributedString> lines, List<Hit> hits) {

    /**
     * A clickable region of one row.
     *
     * @param row    0-based row
     * @param from   first column, inclusive
     * @param to     last column, exclusive
     * @param target what a click there means to the screen that drew it
     */
    public record Hit(int row, int from, int to, Object target) {
    }

    public Frame {
        lines = List.copyOf(lines);
        hits = List.copyOf(hits);
    }

    /** The target under the cell at {@code column}, {@code row}, if any. */
    public Optional<Object> targetAt(int column, int row) {
        for (int i = hits.size() - 1; i >= 0; i--) {
            Hit hit = hits.get(i);
            if (hit.row() == row && column >= hit.from() && column < hit.to()) {
                return Optional.of(hit.target());
            }
        }
        return Optional.empty();
    }

    /** The frame as plain text, one line per row, without styles (for tests and logs). */
    public String text() {
        StringBuilder text = new StringBuilder();
        for (AttributedString line : lines) {
            text.append(line.toString()).append('\n');
        }
        return text.toString();
    }
}
