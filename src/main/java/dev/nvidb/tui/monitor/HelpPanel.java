package dev.nvidb.tui.monitor;

import dev.nvidb.config.ViewMode;
import dev.nvidb.tui.Canvas;
import dev.nvidb.tui.Palette;
import java.util.ArrayList;
import java.util.List;

/**
 * The help panel, tailored to where the focus is: the per-node view, the GPU table or cards,
 * or the process pane. A click anywhere inside closes it, as do ?, Esc and q (q does not quit
 * while help is open).
 */
final class HelpPanel {

    private HelpPanel() {
    }

    /** The key lines for the current focus. */
    static List<String[]> lines(MonitorState state) {
        List<String[]> keys = new ArrayList<>();
        if (state.focus() == MonitorState.Focus.PROCESSES) {
            keys.add(new String[] {"j k ↑ ↓ PgUp PgDn", "move in the process list"});
            keys.add(new String[] {"/", "filter processes as you type (Enter keeps, Esc clears)"});
            keys.add(new String[] {"o F6 / O", "next sort column / reverse it (or click a header)"});
            keys.add(new String[] {"i T K", "arm SIGINT / SIGTERM / SIGKILL for the selected process"});
            keys.add(new String[] {"same key or Enter", "within 5 s sends it on the process's node; Esc cancels"});
            keys.add(new String[] {"+ -", "more / fewer process rows"});
            keys.add(new String[] {"[ ]", "page through a long command line"});
            keys.add(new String[] {"h ← Tab", "back to the GPU pane"});
        } else if (state.view().mode() == ViewMode.PER_NODE) {
            keys.add(new String[] {"j k ↑ ↓ PgUp PgDn", "move between nodes and GPUs"});
            keys.add(new String[] {"Enter Space", "on a node: expand or collapse it; on a GPU: its processes"});
            keys.add(new String[] {"l →", "into the selected GPU's processes"});
            keys.add(new String[] {"a c", "expand / collapse every node"});
            keys.add(new String[] {"u", "show / hide nodes without GPUs"});
            keys.add(new String[] {"v", "switch to the unified GPU table"});
        } else {
            keys.add(new String[] {"j k ↑ ↓ PgUp PgDn", "move between GPUs"});
            keys.add(new String[] {"Enter Space l →", "into the selected GPU's processes"});
            keys.add(new String[] {"d", "detailed cards / single-line rows"});
            keys.add(new String[] {"s", "sort: node order, available first, busiest first"});
            keys.add(new String[] {"f", "filter: all, available, busy, failed nodes"});
            keys.add(new String[] {"g", "group rows per node"});
            keys.add(new String[] {"u", "show / hide nodes without GPUs"});
            keys.add(new String[] {"v", "switch to the per-node view"});
        }
        keys.add(new String[] {"p", "show / hide the process pane"});
        keys.add(new String[] {"t", "history of the selected GPU and process"});
        keys.add(new String[] {"mouse", "click rows, headers and buttons; the wheel scrolls a pane"});
        keys.add(new String[] {"? Esc q", "close this help"});
        keys.add(new String[] {"q  Ctrl-C", "quit (layout keys are saved in config.yml's view:)"});
        return keys;
    }

    /** Draws the panel in the next {@code height} rows; every cell of it is a click that closes it. */
    static void draw(Canvas canvas, MonitorState state, int width, int height) {
        String where = state.focus() == MonitorState.Focus.PROCESSES ? "process pane"
                : state.view().mode() == ViewMode.PER_NODE ? "per-node view" : "unified GPU view";
        List<String[]> keys = lines(state);
        int keyWidth = keys.stream().mapToInt(k -> k[0].length()).max().orElse(8);
        int boxWidth = Math.min(width, Math.max(40, keyWidth + 66));
        int left = Math.max(0, (width - boxWidth) / 2);
        int used = 0;
        Target.Help help = new Target.Help();
        String title = "┏━ help: " + where + " ";
        canvas.text(" ".repeat(left)).hit(left, left + boxWidth, help).text(title, Palette.FOCUS)
                .text("━".repeat(Math.max(0, boxWidth - title.length() - 1)) + "┓", Palette.FOCUS).newline();
        used++;
        for (String[] key : keys) {
            if (used >= height - 1) {
                break;
            }
            canvas.text(" ".repeat(left)).hit(left, left + boxWidth, help).text("┃ ", Palette.FOCUS)
                    .text(Canvas.cell(key[0], keyWidth), Palette.FOCUS_BOLD).text("  ")
                    .text(Canvas.cell(key[1], Math.max(0, boxWidth - keyWidth - 5))).text("┃", Palette.FOCUS).newline();
            used++;
        }
        if (used < height) {
            canvas.text(" ".repeat(left)).hit(left, left + boxWidth, help)
                    .text("┗" + "━".repeat(Math.max(0, boxWidth - 2)) + "┛", Palette.FOCUS).newline();
            used++;
        }
        for (; used < height; used++) {
            canvas.newline();
        }
    }
}
