package dev.nvidb.tui.monitor;

import dev.nvidb.tui.Canvas;
import java.util.List;
import java.util.function.Consumer;

/**
 * One row a pane would draw if it had room: what it draws and which item it belongs to (null
 * for bands, notes and headers), so the pane can scroll to keep the selection in view.
 *
 * @param item     the key of the item the row belongs to, or null
 * @param selected whether the row is the selected item's first row (drawn reversed when focused)
 * @param draw     writes the row's text onto the canvas's current row
 */
record PaneRow(String item, boolean selected, Consumer<Canvas> draw) {

    /** The first row of the window of {@code size} rows that shows the selected row, near the middle. */
    static int windowStart(List<PaneRow> rows, int size) {
        if (rows.size() <= size) {
            return 0;
        }
        int selected = 0;
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).selected()) {
                selected = i;
                break;
            }
        }
        int start = selected - size / 3;
        return Math.max(0, Math.min(start, rows.size() - size));
    }
}
