package dev.nvidb.tui.monitor;

import dev.nvidb.monitor.PcieScore;
import dev.nvidb.config.ViewMode;
import dev.nvidb.model.GpuClaim;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.ProbeResult;
import dev.nvidb.output.SharingText;
import dev.nvidb.output.Units;
import dev.nvidb.tui.Canvas;
import dev.nvidb.tui.Palette;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedStyle;

/**
 * The upper pane: per-node blocks, or the unified table (flat or grouped per node), or the
 * unified view's detailed cards, with the claims on each GPU under it and, per node, its sharing
 * lines (docs/sharing.md). It lays out every row it would draw, then shows the window
 * that keeps the selection in view; the pinned column header stays on top.
 */
final class GpuPane {

    private static final String MARK = "› ";
    private static final String NO_MARK = "  ";
    private static final int INDENT = 4;

    private final MonitorModel model;
    private final MonitorState state;
    private final int width;
    private final Instant now;
    private final boolean focused;

    GpuPane(MonitorModel model, MonitorState state, int width, Instant now) {
        this.model = model;
        this.state = state;
        this.width = width;
        this.now = now;
        this.focused = state.focus() == MonitorState.Focus.GPUS;
    }

    /** The table of the single-line rows, null when the pane has none (cards, error filter). */
    Table<GpuRow> table() {
        ViewSettings view = state.view();
        if (view.mode() == ViewMode.UNIFIED && (view.detail() || view.filter() == GpuFilter.ERRORS)) {
            return null;
        }
        boolean flat = view.mode() == ViewMode.UNIFIED && !model.grouped();
        int indent = view.mode() == ViewMode.PER_NODE ? INDENT : MARK.length();
        return Table.fit(GpuColumns.forWidth(width, flat), width - indent, GpuColumns.NAME_MAX);
    }

    /** Every row the pane would draw, top to bottom, without the pinned header. */
    List<PaneRow> rows() {
        List<PaneRow> rows = new ArrayList<>();
        ViewSettings view = state.view();
        Table<GpuRow> table = table();
        String lastNode = null;
        for (int i = 0; i < model.items().size(); i++) {
            MonitorModel.Item item = model.items().get(i);
            boolean selected = i == model.selected();
            if (item.isNode()) {
                boolean perNode = view.mode() == ViewMode.PER_NODE;
                rows.add(new PaneRow(item.key(), selected, canvas -> {
                    canvas.text(selected ? MARK : NO_MARK, Palette.FOCUS);
                    NodeLine.write(canvas, item.node(), perNode, state.expanded(item.node()), now);
                }));
            } else if (view.mode() == ViewMode.UNIFIED && view.detail()) {
                cardRows(rows, item.gpu(), selected);
                sharingRows(rows, item, i, INDENT);
            } else {
                if (model.grouped() && !item.node().name().equals(lastNode)) {
                    rows.add(new PaneRow(null, false, canvas -> band(canvas, item.node())));
                }
                int indent = view.mode() == ViewMode.PER_NODE ? INDENT : MARK.length();
                rows.add(new PaneRow(item.key(), selected, canvas -> gpuRow(canvas, table, item.gpu(), selected, indent)));
                for (GpuClaim claim : claims(item.gpu())) {
                    rows.add(new PaneRow(item.key(), false, canvas -> claimRow(canvas, claim, item.gpu(), indent)));
                }
                if (view.mode() == ViewMode.PER_NODE || model.grouped()) {
                    sharingRows(rows, item, i, indent);
                }
            }
            lastNode = item.node().name();
        }
        if (view.mode() == ViewMode.UNIFIED && view.filter() != GpuFilter.ERRORS) {
            for (NodeFeed node : model.nodes()) {
                if (!node.answered() && (node.latest() != null || model.items().isEmpty())) {
                    rows.add(new PaneRow(null, false, canvas -> {
                        canvas.text(NO_MARK);
                        NodeLine.write(canvas, node, false, false, now);
                    }));
                }
            }
        }
        if (model.hiddenWithoutGpus() > 0) {
            int hidden = model.hiddenWithoutGpus();
            rows.add(new PaneRow(null, false, canvas -> canvas.text(NO_MARK + hidden
                    + (hidden == 1 ? " node" : " nodes") + " without GPUs hidden · u shows", Palette.DIM)));
        }
        if (rows.isEmpty()) {
            rows.add(new PaneRow(null, false, canvas -> canvas.text(NO_MARK + emptyText(), Palette.DIM)));
        }
        return rows;
    }

    private String emptyText() {
        if (model.nodes().isEmpty()) {
            return "no nodes configured: nvidb add --hostname HOST";
        }
        if (state.view().filter() == GpuFilter.ERRORS) {
            return "every node answered its latest probe";
        }
        return model.hiddenByFilter() > 0 ? "no GPU matches the filter (f cycles)" : "waiting for the first probe…";
    }

    /** Draws the pinned header (when the pane has a table) and {@code height} rows of the window. */
    void draw(Canvas canvas, List<PaneRow> rows, int start, int height) {
        Table<GpuRow> table = table();
        int used = 0;
        if (table != null && height > 1) {
            int indent = state.view().mode() == ViewMode.PER_NODE ? INDENT : MARK.length();
            canvas.hitRow(new Target.GpuPane()).text(" ".repeat(indent));
            table.header(canvas, Palette.DIM, null, false);
            canvas.newline();
            used++;
        }
        for (int i = start; i < rows.size() && used < height; i++, used++) {
            PaneRow row = rows.get(i);
            canvas.hitRow(row.item() == null ? new Target.GpuPane() : new Target.Item(row.item()));
            row.draw().accept(canvas);
            canvas.newline(row.selected() && focused);
        }
        for (; used < height; used++) {
            canvas.hitRow(new Target.GpuPane()).newline();
        }
    }

    /** Rows the pinned header takes. */
    int headerRows(int height) {
        return table() != null && height > 1 ? 1 : 0;
    }

    private void gpuRow(Canvas canvas, Table<GpuRow> table, GpuRow row, boolean selected, int indent) {
        canvas.text(selected ? MARK : NO_MARK, Palette.FOCUS).text(" ".repeat(indent - MARK.length()));
        GpuSnapshot gpu = row.gpu();
        if (gpu.error() != null) {
            int index = 0;
            StringBuilder lead = new StringBuilder();
            for (Column<GpuRow> column : table.columns()) {
                if (column.key().equals("util")) {
                    break;
                }
                lead.append(table.cell(index, column.value().apply(row))).append(' ');
                index++;
            }
            canvas.text(lead.toString()).text("error: " + gpu.error(), Palette.ERROR);
            return;
        }
        table.write(canvas, row);
    }

    /** Every claim on the GPU (the monitor belongs to no queue, so its own queue's too). */
    private static List<GpuClaim> claims(GpuRow row) {
        ProbeResult latest = row.node().latest();
        return latest == null || latest.snapshot() == null ? List.of() : latest.snapshot().claims().on(row.gpu().uuid());
    }

    /** "claimed by alice: 16.0G reserved, job 12 of queue laptop" under the GPU's row. */
    private void claimRow(Canvas canvas, GpuClaim claim, GpuRow row, int indent) {
        canvas.text(NO_MARK + " ".repeat(Math.max(0, indent - MARK.length())) + "  ")
                .text("claimed by ", Palette.FOREIGN).text(Canvas.clean(claim.describe(row.gpu().uuid())));
    }

    /**
     * After a node's last GPU, the node's sharing lines (claims-directory trouble, its policy,
     * other queues waiting): what {@code --once --remote} prints under the node.
     */
    private void sharingRows(List<PaneRow> rows, MonitorModel.Item item, int index, int indent) {
        List<MonitorModel.Item> items = model.items();
        boolean last = index + 1 >= items.size() || items.get(index + 1).isNode()
                || !items.get(index + 1).node().name().equals(item.node().name());
        ProbeResult latest = item.node().latest();
        if (!last || latest == null || latest.snapshot() == null) {
            return;
        }
        for (SharingText.Line line : SharingText.lines(latest.snapshot().claims())) {
            rows.add(new PaneRow(null, false, canvas -> canvas.text(NO_MARK + " ".repeat(Math.max(0, indent - MARK.length())))
                    .text(line.label(), line.warn() ? Palette.WARN : Palette.DIM).text(" ")
                    .text(Canvas.clean(line.text()), line.warn() ? Palette.WARN : Palette.PLAIN)));
        }
    }

    /** The band above a node's rows in the grouped table. */
    private void band(Canvas canvas, NodeFeed node) {
        canvas.text(NO_MARK).text(node.name(), Palette.FOCUS_BOLD).text("  " + NodeLine.where(node), Palette.DIM);
        canvas.text("  " + NodeLine.summary(node.latest().snapshot().gpus()), Palette.DIM).text(" ");
        int fill = width - canvas.column();
        if (fill > 0) {
            canvas.text("╌".repeat(fill), Palette.DIM);
        }
    }

    /** A detailed card: identity, LOAD, MEM/TEMP and I/O rows. */
    private void cardRows(List<PaneRow> rows, GpuRow row, boolean selected) {
        GpuSnapshot gpu = row.gpu();
        boolean bars = width >= GpuColumns.BARS_FROM;
        String key = GpuRow.key(row.node().name(), gpu.index());
        rows.add(new PaneRow(key, selected, canvas -> {
            canvas.text(selected ? MARK : NO_MARK, Palette.FOCUS).text(row.node().name(), Palette.FOCUS_BOLD)
                    .text(" · GPU " + gpu.index(), Palette.BOLD).text("  " + (gpu.name() == null ? "?" : gpu.name()))
                    .text("  " + GpuColumns.host(row), Palette.DIM)
                    .text("  " + gpu.processes().size() + (gpu.processes().size() == 1 ? " process" : " processes"),
                            Palette.DIM);
        }));
        for (GpuClaim claim : claims(row)) {
            rows.add(new PaneRow(key, false, canvas -> canvas.text("    CLAIM    ", Palette.DIM)
                    .text(Canvas.clean(claim.describe(gpu.uuid())), Palette.FOREIGN)));
        }
        if (gpu.error() != null) {
            rows.add(new PaneRow(key, false, canvas -> canvas.text("    error: " + gpu.error(), Palette.ERROR)));
            return;
        }
        rows.add(new PaneRow(key, false, canvas -> {
            canvas.text("    LOAD     ", Palette.DIM).text("util ").text(Canvas.right(Units.percent(gpu.utilPercent()), 4));
            if (bars) {
                canvas.text(" ").text(Bars.bar(gpu.utilPercent(), 20), Palette.FOCUS);
            }
            canvas.text("   mem-util " + Units.percent(gpu.memUtilPercent()), Palette.DIM);
        }));
        rows.add(new PaneRow(key, false, canvas -> {
            AttributedStyle level = GpuColumns.level(gpu.memUsedPercent(), 90, 98);
            canvas.text("    MEM/TEMP ", Palette.DIM).text(Units.mebibytes(gpu.memUsedMb()) + " / "
                    + Units.mebibytes(gpu.memTotalMb())).text(" " + Units.percent(gpu.memUsedPercent()),
                    level == null ? Palette.PLAIN : level);
            if (bars) {
                canvas.text(" ").text(Bars.bar(gpu.memUsedPercent(), 20), level == null ? Palette.FOCUS : level);
            }
            canvas.text("   free " + Units.mebibytes(gpu.memFreeMb()), Palette.DIM);
            AttributedStyle hot = GpuColumns.level(gpu.temperatureC(), 75, 85);
            canvas.text("   temp ").text(gpu.temperatureC() == null ? "-" : gpu.temperatureC() + "C",
                    hot == null ? Palette.PLAIN : hot);
        }));
        rows.add(new PaneRow(key, false, canvas -> {
            canvas.text("    I/O      ", Palette.DIM).text("power " + (gpu.powerW() == null ? "-"
                    : Math.round(gpu.powerW()) + "W") + (gpu.powerLimitW() == null ? ""
                    : " / " + Math.round(gpu.powerLimitW()) + "W"));
            PcieScore score = PcieScore.of(gpu.pcie());
            if (score.link() != null) {
                canvas.text("   link " + score.link().label());
                if (score.rxGigabytesPerSecond() != null || score.txGigabytesPerSecond() != null) {
                    canvas.text(String.format(java.util.Locale.ROOT, " rx %.2fGB/s", orZero(score.rxGigabytesPerSecond())))
                            .text(" " + Telemetry.share(score.rxPercent()), style(Telemetry.shareStyle(score.rxLevel())))
                            .text(String.format(java.util.Locale.ROOT, " tx %.2fGB/s", orZero(score.txGigabytesPerSecond())))
                            .text(" " + Telemetry.share(score.txPercent()), style(Telemetry.shareStyle(score.txLevel())));
                }
                if (score.maxLink() != null) {
                    canvas.text(" of " + score.maxLink().label(), Palette.DIM);
                }
            }
            if (gpu.pciBusId() != null) {
                canvas.text("   bus " + gpu.pciBusId(), Palette.DIM);
            }
        }));
    }

    private static double orZero(Double value) {
        return value == null ? 0 : value;
    }

    private static AttributedStyle style(AttributedStyle style) {
        return style == null ? Palette.PLAIN : style;
    }
}
