package dev.nvidb.tui.monitor;

import dev.nvidb.config.ViewMode;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.tui.Canvas;
import dev.nvidb.tui.Frame;
import dev.nvidb.tui.Palette;
import java.time.Instant;
import java.util.List;

/**
 * Draws the monitor: a title with the totals and the visible range, a warning line when a filter
 * or the hidden GPU-less nodes leave something out, the GPU/node pane, the process pane when it
 * is shown, and a footer with the keys (or the filter being typed, or the armed signal). Pure:
 * model, state, history, size and time in, a {@link Frame} out, so it is tested as text at any
 * size.
 */
public final class MonitorRenderer {

    /** Rows the GPU pane keeps when the process pane is shown, if the terminal has them. */
    private static final int GPU_PANE_MIN = 5;

    private MonitorRenderer() {
    }

    public static Frame render(MonitorModel model, MonitorState state, History history, int width, int height,
                               Instant now) {
        Canvas canvas = new Canvas(width, height);
        GpuPane gpus = new GpuPane(model, state, canvas.width(), now);
        List<PaneRow> rows = gpus.rows();
        String warning = warning(model, state);
        int body = canvas.height() - 1 - 1 - (warning == null ? 0 : 1);
        if (state.help()) {
            title(canvas, model, state, "");
            if (warning != null) {
                canvas.line(warning, Palette.WARN);
            }
            HelpPanel.draw(canvas, state, canvas.width(), Math.max(0, body));
            footer(canvas, state, model);
            return canvas.frame();
        }
        ProcessPane pane = state.paneVisible() ? new ProcessPane(model, state, history, canvas.width()) : null;
        ProcessPane.Plan plan = pane == null ? null : pane.plan(canvas.height(), Math.max(0, body), GPU_PANE_MIN);
        boolean gpuHistory = pane == null && state.view().history() && model.selectedGpu() != null;
        int gpuHeight = Math.max(0, body - (plan == null ? 0 : plan.total()) - (gpuHistory ? 1 : 0));
        int visible = Math.max(0, gpuHeight - gpus.headerRows(gpuHeight));
        int start = PaneRow.windowStart(rows, visible);
        title(canvas, model, state, range(rows, start, visible));
        if (warning != null) {
            canvas.line(warning, Palette.WARN);
        }
        gpus.draw(canvas, rows, start, gpuHeight);
        if (gpuHistory) {
            canvas.hitRow(new Target.GpuPane());
            HistoryLine.gpu(canvas, history, model.selectedGpu(), canvas.width());
            canvas.newline();
        }
        if (pane != null) {
            pane.draw(canvas, plan);
        }
        canvas.fillTo(1);
        footer(canvas, state, model);
        return canvas.frame();
    }

    /** "GPUs 3-10 of 24" when the pane scrolls, "" when everything fits. */
    private static String range(List<PaneRow> rows, int start, int visible) {
        if (rows.size() <= visible) {
            return "";
        }
        return "rows " + (start + 1) + "-" + Math.min(rows.size(), start + visible) + " of " + rows.size();
    }

    private static void title(Canvas canvas, MonitorModel model, MonitorState state, String range) {
        List<GpuRow> all = model.allGpus();
        List<GpuSnapshot> gpus = all.stream().map(GpuRow::gpu).toList();
        long up = model.nodes().stream().filter(NodeFeed::answered).count();
        StringBuilder left = new StringBuilder();
        left.append(state.view().mode() == ViewMode.PER_NODE ? "per-node" : "unified");
        if (state.view().mode() == ViewMode.UNIFIED) {
            left.append(state.view().detail() ? " cards" : "").append(" · ").append(state.view().sort().label());
        }
        left.append(" · ").append(up).append('/').append(model.nodes().size()).append(" nodes up · ");
        left.append(NodeLine.summary(gpus));
        String focus = state.focus() == MonitorState.Focus.PROCESSES ? "processes" : "gpus";
        String rightText = (range.isEmpty() ? "" : range + " · ") + "focus " + focus + " · ? help ";
        String right = rightText;
        int leftRoom = canvas.width() - 7 - right.length() - 1;
        if (leftRoom < 20) {
            right = "";
            leftRoom = canvas.width() - 7;
        }
        canvas.text(" nvidb ", Palette.FOCUS_BOLD).text(Canvas.cell(left.toString(), Math.max(0, leftRoom)));
        int room = canvas.width() - canvas.column() - right.length();
        if (!right.isEmpty() && room >= 1) {
            canvas.text(" ".repeat(room)).text(right, Palette.DIM);
        }
        canvas.newline();
    }

    /** What the view leaves out, said once above the panes; null when nothing is. */
    private static String warning(MonitorModel model, MonitorState state) {
        ViewSettings view = state.view();
        if (view.mode() == ViewMode.UNIFIED && view.filter() != GpuFilter.ALL) {
            int shown = (int) model.items().stream().filter(item -> !item.isNode()).count();
            String what = view.filter() == GpuFilter.ERRORS ? "failed nodes only" : view.filter().key() + " GPUs only";
            return " filter: " + what + " · hiding " + model.hiddenByFilter() + " of "
                    + (shown + model.hiddenByFilter()) + " GPUs · f cycles";
        }
        return null;
    }

    private static void footer(Canvas canvas, MonitorState state, MonitorModel model) {
        MonitorState.Armed armed = state.armed();
        if (state.editingFilter()) {
            canvas.text(" filter: ", Palette.FOCUS_BOLD).text(state.processFilter()).text("▏", Palette.FOCUS)
                    .text("  Enter keeps · Esc clears", Palette.DIM);
        } else if (armed != null) {
            SignalRequest request = armed.request();
            canvas.text(" press " + request.signal().key() + " again or Enter within " + state.armedSecondsLeft()
                    + "s to send " + request.describe() + " · Esc cancels", Palette.ERROR_BOLD);
        } else if (state.notice() != null) {
            canvas.text(" " + state.notice().text(), state.notice().error() ? Palette.ERROR : Palette.FOCUS);
        } else {
            canvas.text(" " + hints(state, model), Palette.DIM);
        }
        canvas.newline();
    }

    private static String hints(MonitorState state, MonitorModel model) {
        if (state.focus() == MonitorState.Focus.PROCESSES) {
            return "q quit · ? help · j/k move · / filter · o sort · i/T/K signal · t history · h back";
        }
        String enter = model.selectedGpu() != null ? "Enter processes" : "Enter expand";
        return "q quit · ? help · v view · j/k move · " + enter + " · d s f g u · p pane · t history";
    }
}
