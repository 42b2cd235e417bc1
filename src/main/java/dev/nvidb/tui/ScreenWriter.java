package dev.nvidb.tui;

import java.util.ArrayList;
import java.util.List;
import org.jline.terminal.Terminal;
import org.jline.utils.AttributedString;

/**
 * Puts frames on the terminal, rewriting only the rows that changed since the last one, each
 * addressed by its own cursor move: nothing is cleared between frames (no flicker) and no row
 * ever wraps into the next. That matters beyond neatness: tmux (3.3) lets rows that wrapped on
 * the alternate screen after a resize leak into the user's own screen when the view closes.
 * The bottom-right cell is never written, so no terminal scrolls.
 */
final class ScreenWriter {

    private final Terminal terminal;
    private List<AttributedString> shown = List.of();
    private int width = -1;
    private int height = -1;

    ScreenWriter(Terminal terminal) {
        this.terminal = terminal;
    }

    /** Forgets what is on screen: the next frame is drawn whole, after a clear. */
    void invalidate() {
        shown = List.of();
        width = -1;
    }

    void draw(List<AttributedString> lines, int newWidth, int newHeight) {
        StringBuilder out = new StringBuilder();
        if (newWidth != width || newHeight != height || shown.isEmpty()) {
            out.append("\033[0m\033[H\033[2J");
            shown = List.of();
            width = newWidth;
            height = newHeight;
        }
        List<AttributedString> drawn = new ArrayList<>(lines.size());
        for (int row = 0; row < Math.min(lines.size(), height); row++) {
            AttributedString line = lines.get(row);
            if (row == height - 1 && line.columnLength() >= width) {
                line = line.columnSubSequence(0, Math.max(0, width - 1));
            }
            drawn.add(line);
            if (row < shown.size() && line.equals(shown.get(row))) {
                continue;
            }
            out.append("\033[").append(row + 1).append(";1H\033[0m").append(line.toAnsi(terminal)).append("\033[0m");
        }
        shown = drawn;
        if (out.length() > 0) {
            out.append("\033[").append(height).append(";1H");
            terminal.writer().write(out.toString());
            terminal.flush();
        }
    }
}
