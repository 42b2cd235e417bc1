package dev.nvidb.tui.monitor;

import java.util.Comparator;
import java.util.function.Function;
import org.jline.utils.AttributedStyle;

/**
 * One column of a monitor table. A table is a list of these, so adding a metric is adding one
 * entry: its header, its width, how important it is when the terminal is narrow, how to print
 * a row's value, and optionally how to colour it and how to sort by it.
 *
 * @param key      stable name (a sort is remembered by it)
 * @param header   the header text
 * @param width    columns it takes; 0 for the one flexible column that takes what is left
 * @param right    right-aligned (numbers)
 * @param priority narrow terminals drop the columns of lowest priority first
 * @param value    the cell text of a row
 * @param order    the order sorting by this column gives first (null: not sortable)
 * @param style    the cell's colour for a row (null: the terminal's own)
 * @param <T>      the row type
 */
public record Column<T>(String key, String header, int width, boolean right, int priority,
                        Function<T, String> value, Comparator<T> order, Function<T, AttributedStyle> style) {

    /** A plain column that cannot be sorted by. */
    static <T> Column<T> of(String key, String header, int width, boolean right, int priority,
                            Function<T, String> value) {
        return new Column<>(key, header, width, right, priority, value, null, null);
    }

    /** This column, sortable: {@code first} is the order one press gives. */
    Column<T> sortedBy(Comparator<T> first) {
        return new Column<>(key, header, width, right, priority, value, first, style);
    }

    /** This column, each cell coloured by {@code colour}. */
    Column<T> styled(Function<T, AttributedStyle> colour) {
        return new Column<>(key, header, width, right, priority, value, order, colour);
    }

    public boolean flexible() {
        return width == 0;
    }

    public boolean sortable() {
        return order != null;
    }

    /** The style of {@code row}'s cell. */
    AttributedStyle styleOf(T row) {
        AttributedStyle chosen = style == null ? null : style.apply(row);
        return chosen == null ? AttributedStyle.DEFAULT : chosen;
    }
}
