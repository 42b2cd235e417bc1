package dev.nvidb.tui.monitor;

import dev.nvidb.output.Units;
import dev.nvidb.tui.Canvas;
import dev.nvidb.tui.Palette;
import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedStyle;

/**
 * The lower pane: the selected GPU's processes (live filter, sort, clickable headers), the
 * selected process spelled out with its whole command line (paged with [ and ]), history
 * sparklines when asked for, and the action bar with the signal buttons.
 */
final class ProcessPane {

    /** Rows besides the process rows and the command lines: rule, header, detail line, action bar. */
    static final int FIXED_ROWS = 4;

    private final MonitorModel model;
    private final MonitorState state;
    private final History history;
    private final int width;
    private final boolean focused;

    ProcessPane(MonitorModel model, MonitorState state, History history, int width) {
        this.model = model;
        this.state = state;
        this.history = history;
        this.width = width;
        this.focused = state.focus() == MonitorState.Focus.PROCESSES;
    }

    /** How the pane's rows are shared out. */
    record Plan(int processRows, int commandRows, int historyRows) {
        int total() {
            return FIXED_ROWS + processRows + commandRows + historyRows;
        }
    }

    /**
     * The rows the pane wants on a terminal {@code height} rows tall, leaving the GPU pane at least
     * {@code keepAbove} rows when it can: command lines give way first, then process rows.
     */
    Plan plan(int height, int room, int keepAbove) {
        int processes = Math.max(1, Math.min(state.processRows(), Math.max(1, model.processes().size())));
        boolean withHistory = state.view().history();
        int historyRows = withHistory ? 2 : 0;
        int pageSize = height < 28 ? 5 : 8;
        List<String> command = commandLines();
        int commandRows = withHistory && height < 36 ? 0 : Math.min(pageSize, command.size());
        Plan plan = new Plan(processes, commandRows, historyRows);
        while (plan.total() > room - keepAbove && plan.commandRows() > (withHistory ? 0 : 1)) {
            plan = new Plan(plan.processRows(), plan.commandRows() - 1, plan.historyRows());
        }
        while (plan.total() > room - keepAbove && plan.processRows() > 1) {
            plan = new Plan(plan.processRows() - 1, plan.commandRows(), plan.historyRows());
        }
        while (plan.total() > room && plan.historyRows() > 0) {
            plan = new Plan(plan.processRows(), plan.commandRows(), plan.historyRows() - 1);
        }
        while (plan.total() > room && plan.commandRows() > 0) {
            plan = new Plan(plan.processRows(), plan.commandRows() - 1, plan.historyRows());
        }
        return plan;
    }

    Table<ProcessRow> table() {
        return Table.fit(ProcessColumns.ALL, width - 2, Integer.MAX_VALUE);
    }

    /** Draws the pane in {@code plan}'s rows (fewer when the canvas runs out). */
    void draw(Canvas canvas, Plan plan) {
        rule(canvas);
        Table<ProcessRow> table = table();
        canvas.hitRow(new Target.ProcessPane()).text("  ");
        table.header(canvas, Palette.DIM, state.processSort(), state.processReversed());
        canvas.newline();
        List<ProcessRow> rows = model.processes();
        if (rows.isEmpty()) {
            canvas.hitRow(new Target.ProcessPane()).text("  " + emptyText(), Palette.DIM).newline();
            for (int i = 1; i < plan.processRows(); i++) {
                canvas.hitRow(new Target.ProcessPane()).newline();
            }
        } else {
            int start = Math.max(0, Math.min(model.selectedProcess() - plan.processRows() / 2,
                    rows.size() - plan.processRows()));
            for (int i = start; i < start + plan.processRows(); i++) {
                if (i >= rows.size()) {
                    canvas.hitRow(new Target.ProcessPane()).newline();
                    continue;
                }
                ProcessRow row = rows.get(i);
                boolean selected = i == model.selectedProcess();
                canvas.hitRow(new Target.Process(row.key())).text(selected ? "› " : "  ", Palette.FOCUS);
                table.write(canvas, row);
                canvas.newline(selected && focused);
            }
        }
        detail(canvas, plan);
        actions(canvas);
    }

    private String emptyText() {
        GpuRow gpu = model.selectedGpu();
        if (gpu == null) {
            return "select a GPU to see its processes";
        }
        if (model.unfilteredCount() > 0) {
            return "no process matches \"" + state.processFilter() + "\" (Esc clears)";
        }
        return "no processes on " + gpu.node().name() + " GPU " + gpu.gpu().index();
    }

    private void rule(Canvas canvas) {
        String line = focused ? "━" : "╌";
        AttributedStyle style = focused ? Palette.FOCUS : Palette.DIM;
        StringBuilder title = new StringBuilder(" processes");
        GpuRow gpu = model.selectedGpu();
        if (gpu != null) {
            title.append(" · ").append(gpu.node().name()).append(" GPU ").append(gpu.gpu().index());
            title.append(" · ").append(model.processes().size());
            if (model.processes().size() != model.unfilteredCount()) {
                title.append(" of ").append(model.unfilteredCount());
            }
        }
        title.append(" · sort ").append(ProcessColumns.column(state.processSort()).header())
                .append(state.processReversed() ? "▲" : "▼");
        if (!state.processFilter().isEmpty() || state.editingFilter()) {
            title.append(" · filter \"").append(state.processFilter()).append('"');
        }
        title.append(' ');
        canvas.hitRow(new Target.ProcessPane()).text(line.repeat(2), style).text(title.toString(), style);
        int fill = width - canvas.column();
        if (fill > 0) {
            canvas.text(line.repeat(fill), style);
        }
        canvas.newline();
    }

    /** The selected process: one summary line, its command lines (or history), paged. */
    private void detail(Canvas canvas, Plan plan) {
        ProcessRow row = model.selectedProcessRow();
        if (row == null) {
            canvas.hitRow(new Target.ProcessPane()).newline();
        } else {
            canvas.hitRow(new Target.ProcessPane()).text("  pid " + row.process().pid(), Palette.BOLD)
                    .text("  " + (row.process().user() == null ? "?" : row.process().user()))
                    .text("  VRAM " + (row.process().memMb() == null ? "n/a (driver does not say)"
                            : Units.mebibytes(row.process().memMb()) + " = " + Units.percent(row.percentOfGpu())
                            + " of the GPU, " + Units.percent(row.percentOfUsed()) + " of its used memory"))
                    .text("  " + (row.process().type() == null ? "" : row.process().type()), Palette.DIM)
                    .text(hostFigures(row.process().stats()), Palette.DIM);
            List<String> lines = commandLines();
            int pages = Math.max(1, plan.commandRows() == 0 ? 1 : (lines.size() + plan.commandRows() - 1)
                    / plan.commandRows());
            if (pages > 1) {
                int page = Math.min(state.commandPage(), pages - 1) + 1;
                canvas.text("  ").text("[", Palette.BUTTON, new Target.Key('['))
                        .text(" command " + page + "/" + pages + " ", Palette.DIM)
                        .text("]", Palette.BUTTON, new Target.Key(']'));
            }
            canvas.newline();
        }
        List<String> lines = commandLines();
        int pageRows = plan.commandRows();
        int pages = pageRows == 0 ? 1 : Math.max(1, (lines.size() + pageRows - 1) / pageRows);
        int from = Math.min(state.commandPage(), pages - 1) * pageRows;
        for (int i = 0; i < pageRows; i++) {
            int at = from + i;
            canvas.hitRow(new Target.ProcessPane());
            if (row != null && at < lines.size()) {
                canvas.text(at == 0 ? "  $ " : "    ", Palette.DIM).text(lines.get(at));
            }
            canvas.newline();
        }
        historyRows(canvas, plan.historyRows(), row);
    }

    private void historyRows(Canvas canvas, int rows, ProcessRow row) {
        if (rows <= 0) {
            return;
        }
        GpuRow gpu = model.selectedGpu();
        canvas.hitRow(new Target.ProcessPane());
        if (gpu != null) {
            HistoryLine.gpu(canvas, history, gpu, width);
        }
        canvas.newline();
        if (rows > 1) {
            canvas.hitRow(new Target.ProcessPane());
            if (row != null) {
                HistoryLine.process(canvas, history, row, width);
            }
            canvas.newline();
        }
    }

    /** The selected process's command line cut into lines that fit. */
    List<String> commandLines() {
        ProcessRow row = model.selectedProcessRow();
        if (row == null) {
            return List.of();
        }
        String text = Canvas.clean(row.commandLine());
        int room = Math.max(10, width - 4);
        List<String> lines = new ArrayList<>();
        for (int at = 0; at < text.length(); at += room) {
            lines.add(text.substring(at, Math.min(text.length(), at + room)));
        }
        return lines.isEmpty() ? List.of("") : lines;
    }

    /** The action bar: signal buttons (an armed one in red with its countdown), history, rows. */
    private void actions(Canvas canvas) {
        canvas.hitRow(new Target.ProcessPane()).text(" ");
        MonitorState.Armed armed = state.armed();
        for (ProcessSignal signal : ProcessSignal.values()) {
            boolean isArmed = armed != null && armed.request().signal() == signal;
            String label = " " + signal.key() + " " + signal.label() + (isArmed ? "? " + state.armedSecondsLeft() + "s " : " ");
            canvas.text(label, isArmed ? Palette.ARMED : Palette.BUTTON, new Target.Key(signal.key())).text(" ");
        }
        canvas.text(" t History ", state.view().history() ? Palette.ARMED.foreground(AttributedStyle.CYAN)
                : Palette.BUTTON, new Target.Key('t')).text(" ");
        canvas.text(" + ", Palette.BUTTON, new Target.Key('+')).text(" rows ", Palette.DIM)
                .text(" - ", Palette.BUTTON, new Target.Key('-')).text(" ");
        canvas.text(" / filter ", Palette.BUTTON, new Target.Key('/'));
        canvas.newline();
    }

    /** CPU, host memory, threads, state and age of the selected process, where the node said. */
    private static String hostFigures(dev.nvidb.model.ProcessStats stats) {
        StringBuilder text = new StringBuilder();
        if (stats.cpuPercent() != null) {
            text.append("  cpu ").append(Telemetry.percent(stats.cpuPercent())).append('%');
        }
        if (stats.rssBytes() != null) {
            text.append("  rss ").append(Telemetry.bytes(stats.rssBytes()));
            if (stats.hostMemPercent() != null) {
                text.append(" (").append(Telemetry.percent(stats.hostMemPercent())).append("% of host)");
            }
        }
        if (stats.threads() != null) {
            text.append("  ").append(stats.threads()).append(stats.threads() == 1 ? " thread" : " threads");
        }
        if (stats.state() != null) {
            text.append("  state ").append(stats.state());
        }
        if (stats.elapsedSeconds() != null) {
            text.append("  up ").append(Telemetry.elapsed(stats.elapsedSeconds()));
        }
        return text.toString();
    }
}
