package dev.nvidb.tui;

import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * Builds a {@link Frame} row by row: each row is cut to the width (with an ellipsis where text
 * was lost) and padded, and the regions a click can land on are recorded as the row is
 * written. Rows past the height are dropped; missing rows are blank.
 */
public final class Canvas {

    private final int width;
    private final int height;
    private final List<AttributedString> lines = new ArrayList<>();
    private final List<Frame.Hit> hits = new ArrayList<>();
    private AttributedStringBuilder row = new AttributedStringBuilder();

    public Canvas(int width, int height) {
        this.width = Math.max(1, width);
        this.height = Math.max(1, height);
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** Rows finished so far. */
    public int rows() {
        return lines.size();
    }

    /** Rows still free below the current one (the current one included). */
    public int remaining() {
        return Math.max(0, height - lines.size());
    }

    /** The column the next text on the current row starts at. */
    public int column() {
        return row.columnLength();
    }

    /** Appends plain text to the current row. */
    public Canvas text(String text) {
        return text(text, AttributedStyle.DEFAULT);
    }

    /** Appends styled text to the current row. */
    public Canvas text(String text, AttributedStyle style) {
        row.styled(style, clean(text));
        return this;
    }

    /** Appends styled text and makes it clickable as {@code target}. */
    public Canvas text(String text, AttributedStyle style, Object target) {
        int from = column();
        text(text, style);
        hit(from, column(), target);
        return this;
    }

    /** Appends an attributed string to the current row. */
    public Canvas text(AttributedString text) {
        row.append(text);
        return this;
    }

    /** Makes columns {@code from} (inclusive) to {@code to} (exclusive) of the current row clickable. */
    public Canvas hit(int from, int to, Object target) {
        if (target != null && lines.size() < height && from < to) {
            hits.add(new Frame.Hit(lines.size(), from, Math.min(to, width), target));
        }
        return this;
    }

    /** Makes the whole current row clickable as {@code target}. */
    public Canvas hitRow(Object target) {
        return hit(0, width, target);
    }

    /** Pads the current row with spaces up to {@code column}. */
    public Canvas padTo(int column) {
        int gap = column - column();
        if (gap > 0) {
            row.append(" ".repeat(gap));
        }
        return this;
    }

    /** Ends the current row. */
    public Canvas newline() {
        if (lines.size() < height) {
            lines.add(fit(row.toAttributedString(), width, false));
        }
        row = new AttributedStringBuilder();
        return this;
    }

    /** Ends the current row, shown selected (reversed, padding included) when {@code selected}. */
    public Canvas newline(boolean selected) {
        if (lines.size() < height) {
            lines.add(fit(row.toAttributedString(), width, selected));
        }
        row = new AttributedStringBuilder();
        return this;
    }

    /** A row of its own. */
    public Canvas line(String text, AttributedStyle style) {
        return text(text, style).newline();
    }

    /** Blank rows up to {@code rows} rows from the bottom. */
    public Canvas fillTo(int rowsFromBottom) {
        while (lines.size() < height - rowsFromBottom) {
            newline();
        }
        return this;
    }

    public Frame frame() {
        if (row.length() > 0) {
            newline();
        }
        List<AttributedString> all = new ArrayList<>(lines);
        while (all.size() < height) {
            all.add(new AttributedString(" ".repeat(width)));
        }
        return new Frame(all, hits);
    }

    /**
     * {@code line} cut to {@code width} columns (the last kept column becomes an ellipsis when
     * text was lost) and padded with spaces; {@code selected} reverses every cell, which reads
     * as a selection on dark and light backgrounds alike.
     */
    public static AttributedString fit(AttributedString line, int width, boolean selected) {
        AttributedStringBuilder out = new AttributedStringBuilder();
        int length = line.columnLength();
        if (length > width) {
            out.append(line.columnSubSequence(0, Math.max(0, width - 1)));
            out.append("…");
        } else {
            out.append(line);
            out.append(" ".repeat(width - length));
        }
        AttributedString fitted = out.toAttributedString();
        if (!selected) {
            return fitted;
        }
        AttributedStringBuilder reversed = new AttributedStringBuilder();
        for (int i = 0; i < fitted.length(); i++) {
            reversed.style(fitted.styleAt(i).inverse()).append(fitted.charAt(i));
        }
        return reversed.toAttributedString();
    }

    /** Text with control characters (which would move the cursor) made visible and harmless. */
    public static String clean(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 32 || c == 127 || (c >= 0x80 && c < 0xa0)) {
                if (out == null) {
                    out = new StringBuilder(text.length()).append(text, 0, i);
                }
                out.append(c == '\t' ? ' ' : '?');
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? text : out.toString();
    }

    /** {@code text} cut or padded to exactly {@code width} columns. */
    public static String cell(String text, int width) {
        String value = clean(text);
        if (width <= 0) {
            return "";
        }
        AttributedString attributed = new AttributedString(value);
        int length = attributed.columnLength();
        if (length > width) {
            return attributed.columnSubSequence(0, width - 1).toString() + "…";
        }
        return value + " ".repeat(width - length);
    }

    /** {@code text} right-aligned in exactly {@code width} columns. */
    public static String right(String text, int width) {
        String value = clean(text);
        int length = new AttributedString(value).columnLength();
        if (length >= width) {
            return cell(value, width);
        }
        return " ".repeat(width - length) + value;
    }
}
