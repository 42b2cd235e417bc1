package dev.nvidb.tui.monitor;

import dev.nvidb.tui.Canvas;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jline.utils.AttributedStyle;

/**
 * Fits a list of {@link Column}s to a width: the columns of lowest priority go first until the
 * rest fit with one space between them, and the flexible column (if any) takes what is left,
 * at least {@link #FLEX_MIN} and at most {@code flexMax} columns. Pure.
 *
 * @param columns the columns kept, in their original order
 * @param widths  the width each kept column gets
 * @param <T>     the row type
 */
public record Table<T>(List<Column<T>> columns, List<Integer> widths) {

    static final int FLEX_MIN = 18;

    /** The layout of {@code all} for {@code width} columns, the flexible one at most {@code flexMax} wide. */
    public static <T> Table<T> fit(List<Column<T>> all, int width, int flexMax) {
        List<Column<T>> kept = new ArrayList<>(all);
        while (kept.size() > 1 && needed(kept) > width) {
            Column<T> least = kept.stream().min(Comparator.comparingInt(Column::priority)).orElseThrow();
            kept.remove(least);
        }
        int rest = width - needed(kept) + (kept.stream().anyMatch(Column::flexible) ? FLEX_MIN : 0);
        List<Integer> widths = new ArrayList<>();
        for (Column<T> column : kept) {
            widths.add(column.flexible() ? Math.max(FLEX_MIN, Math.min(flexMax, rest)) : column.width());
        }
        return new Table<>(List.copyOf(kept), List.copyOf(widths));
    }

    /** Columns needed with the flexible one at its minimum, separators included. */
    private static <T> int needed(List<Column<T>> columns) {
        int sum = 0;
        for (Column<T> column : columns) {
            sum += column.flexible() ? FLEX_MIN : column.width();
        }
        return sum + Math.max(0, columns.size() - 1);
    }

    /** The cell of column {@code i} for {@code text}, padded or cut to its width. */
    public String cell(int i, String text) {
        return columns.get(i).right() ? Canvas.right(text, widths.get(i)) : Canvas.cell(text, widths.get(i));
    }

    /** The column starting at each position, for click targets: the first column of column {@code i}. */
    public int start(int i) {
        int at = 0;
        for (int k = 0; k < i; k++) {
            at += widths.get(k) + 1;
        }
        return at;
    }

    /** The row's cells joined, one space apart. */
    public String row(T row) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                line.append(' ');
            }
            line.append(cell(i, columns.get(i).value().apply(row)));
        }
        return line.toString();
    }

    /** Writes {@code row}'s cells onto the canvas's current row, each in its column's colour. */
    public void write(Canvas canvas, T row) {
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                canvas.text(" ");
            }
            Column<T> column = columns.get(i);
            canvas.text(cell(i, column.value().apply(row)), column.styleOf(row));
        }
    }

    /**
     * Writes the header; a sortable column's header is a {@link Target.SortBy} click target and
     * the column sorted by carries an arrow.
     */
    public void header(Canvas canvas, AttributedStyle style, String sortedKey, boolean reversed) {
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                canvas.text(" ", style);
            }
            Column<T> column = columns.get(i);
            String title = column.header();
            if (column.key().equals(sortedKey)) {
                title = title + (reversed ? "▲" : "▼");
            }
            Object target = column.sortable() ? new Target.SortBy(column.key()) : null;
            canvas.text(cell(i, title), style, target);
        }
    }

    /** Whether the column called {@code key} was kept. */
    public boolean has(String key) {
        return columns.stream().anyMatch(column -> column.key().equals(key));
    }
}
