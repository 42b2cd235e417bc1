package dev.nvidb.tui.queue;

import dev.nvidb.model.GpuClaim;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.output.JobText;
import dev.nvidb.output.SharingText;
import dev.nvidb.output.Units;
import dev.nvidb.queue.GpuView;
import dev.nvidb.queue.NodeView;
import dev.nvidb.scheduler.GpuBudget;
import dev.nvidb.tui.Canvas;
import dev.nvidb.tui.Input;
import dev.nvidb.tui.Palette;
import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * The queue screen's node section: a block per node (status, drained, GPUs, running jobs, its
 * last error when down), a line per GPU with its memory bar and the queue's jobs on it, other
 * queues' claims on it, the GPU processes {@code p} asks for, and the node's sharing lines
 * (policy, other queues waiting; docs/sharing.md). Rows are made first, then drawn into as many rows as the
 * layout gives, scrolled to keep the selected node in view. Pure.
 */
final class NodeSection {

    private static final String FOREIGN_GLYPH = "▓";
    private static final String QUEUE_GLYPH = "█";
    private static final String FREE_GLYPH = "░";

    private NodeSection() {
    }

    /** A row drawn into a section before the section knows how many rows it gets. */
    record Row(AttributedString text, QueueTarget target, boolean selected) {
    }

    static List<Row> rows(QueueView view, List<NodeView> nodes, int width) {
        QueueScreenState state = view.state();
        List<Row> rows = new ArrayList<>();
        for (NodeView node : nodes) {
            QueueTarget target = new QueueTarget.NodeBlock(node.name());
            boolean selected = node.name().equals(state.selectedNode);
            AttributedStringBuilder line = new AttributedStringBuilder();
            line.styled(Palette.FOCUS_BOLD, selected && state.focus == QueueScreenState.Focus.NODES ? "› " : "  ");
            line.styled(Palette.BOLD, node.name()).append("  ");
            switch (node.status()) {
                case "up" -> line.styled(Palette.OK, "up");
                case "down" -> line.styled(Palette.ERROR_BOLD, "DOWN");
                default -> line.styled(Palette.WARN, node.status());
            }
            if (node.drained()) {
                line.append(" ").styled(Palette.WARN.bold(), "DRAINED");
            }
            line.styled(Palette.DIM, " · " + node.gpus().size() + (node.gpus().size() == 1 ? " GPU" : " GPUs")
                    + " · " + node.runningJobs() + " running");
            if ("down".equals(node.status())) {
                line.styled(Palette.ERROR, " · " + (node.lastError() == null ? "no answer" : node.lastError()));
                line.styled(Palette.DIM, " · last answer " + (node.lastSeenAt() == null ? "never"
                        : JobText.ago(node.lastSeenAt(), view.now()) + " ago"));
            } else if (node.lastSeenAt() != null) {
                line.styled(Palette.DIM, " · seen " + JobText.ago(node.lastSeenAt(), view.now()) + " ago");
            }
            rows.add(new Row(line.toAttributedString(), target, selected && state.focus == QueueScreenState.Focus.NODES));
            boolean stale = !"up".equals(node.status());
            for (GpuView gpu : node.gpus()) {
                rows.add(new Row(gpuLine(gpu, width, stale), target, false));
                for (GpuClaim claim : gpu.claims()) {
                    if (!claim.ownQueue()) {
                        rows.add(new Row(claimLine(claim, gpu.gpu().uuid()), target, false));
                    }
                }
                for (GpuProcess process : gpu.gpu().processes()) {
                    Long job = gpu.jobOfPid().get(process.pid());
                    boolean show = switch (state.processes) {
                        case ALL -> true;
                        case UNMANAGED -> job == null;
                        case NONE -> false;
                    };
                    if (show) {
                        rows.add(new Row(processLine(process, job), target, false));
                    }
                }
            }
            if (node.snapshot() != null) {
                for (SharingText.Line sharing : SharingText.lines(node.snapshot().claims())) {
                    rows.add(new Row(sharingLine(sharing), target, false));
                }
            }
        }
        return rows;
    }

    /** Another queue's claim on the card, in the foreign colour: what {@code queue nodes} prints. */
    private static AttributedString claimLine(GpuClaim claim, String uuid) {
        AttributedStringBuilder line = new AttributedStringBuilder();
        line.append("      ").styled(Palette.FOREIGN, "claimed by ").append(Canvas.clean(claim.describe(uuid)));
        return line.toAttributedString();
    }

    /** The node's claims-directory trouble, policy or another queue's waiting demand. */
    private static AttributedString sharingLine(SharingText.Line sharing) {
        AttributedStringBuilder line = new AttributedStringBuilder();
        line.append("    ").styled(sharing.warn() ? Palette.WARN : Palette.DIM, sharing.label()).append(" ")
                .styled(sharing.warn() ? Palette.WARN : Palette.PLAIN, Canvas.clean(sharing.text()));
        return line.toAttributedString();
    }

    private static AttributedString gpuLine(GpuView view, int width, boolean stale) {
        GpuSnapshot gpu = view.gpu();
        AttributedStringBuilder line = new AttributedStringBuilder();
        line.append("    ").styled(Palette.DIM, String.format("%d ", gpu.index()));
        String name = gpu.name() == null ? "GPU" : gpu.name().replace("NVIDIA ", "");
        line.append(Canvas.cell(name, width >= 120 ? 22 : 14)).append(" ");
        GpuBudget budget = view.budget();
        if (budget == null) {
            line.styled(Palette.WARN, "state unknown" + (gpu.error() == null ? "" : ": " + gpu.error()));
            return line.toAttributedString();
        }
        int barWidth = width >= 160 ? 40 : width >= 120 ? 30 : 16;
        line.append(bar(budget, barWidth, stale)).append(" ");
        AttributedStyle value = stale ? Palette.DIM : Palette.PLAIN;
        line.styled(value, Units.mebibytes(gpu.memUsedMb()) + "/" + Units.mebibytes(gpu.memTotalMb()));
        line.styled(Palette.DIM, " free ").styled(budget.freeMb() < 0 ? Palette.ERROR : value,
                Units.mebibytes(Math.max(0, budget.freeMb())));
        line.styled(Palette.DIM, " util ").styled(value, Units.percent(gpu.utilPercent()));
        List<Long> jobs = view.jobOfPid().values().stream().distinct().sorted().toList();
        if (!jobs.isEmpty()) {
            line.styled(Palette.DIM, " jobs ").styled(Palette.RESERVED,
                    String.join(",", jobs.stream().map(String::valueOf).toList()));
        }
        if (!"measured".equals(view.attribution())) {
            line.styled(Palette.WARN, " " + view.attribution());
        }
        return line.toAttributedString();
    }

    /**
     * The memory bar: foreign memory ({@value #FOREIGN_GLYPH}, amber), what this queue's jobs
     * hold or reserved ({@value #QUEUE_GLYPH}, teal), free ({@value #FREE_GLYPH}, dim). Glyphs
     * differ as well as colours, so the bar reads without colour too.
     */
    static AttributedString bar(GpuBudget budget, int width, boolean stale) {
        long total = Math.max(1, budget.totalMb());
        int foreign = cells(budget.externalMb(), total, width);
        int queue = Math.min(width - foreign, cells(budget.chargedMb(), total, width));
        int free = Math.max(0, width - foreign - queue);
        AttributedStringBuilder bar = new AttributedStringBuilder();
        bar.styled(stale ? Palette.DIM : Palette.FOREIGN, FOREIGN_GLYPH.repeat(foreign));
        bar.styled(stale ? Palette.DIM : Palette.RESERVED, QUEUE_GLYPH.repeat(queue));
        bar.styled(Palette.FREE, FREE_GLYPH.repeat(free));
        return bar.toAttributedString();
    }

    private static int cells(long mib, long total, int width) {
        if (mib <= 0) {
            return 0;
        }
        return (int) Math.max(1, Math.min(width, Math.round((double) mib * width / total)));
    }

    private static AttributedString processLine(GpuProcess process, Long job) {
        AttributedStringBuilder line = new AttributedStringBuilder();
        line.append("      ");
        line.styled(job == null ? Palette.FOREIGN : Palette.RESERVED, job == null ? "foreign " : "job " + job + " ");
        line.styled(Palette.DIM, "pid ").append(String.valueOf(process.pid()));
        line.append(" ").append(process.user() == null ? "?" : process.user());
        line.append(" ").append(Units.mebibytes(process.memMb()));
        line.append(" ").styled(Palette.DIM, Canvas.clean(process.command() != null ? process.command()
                : process.name() != null ? process.name() : ""));
        return line.toAttributedString();
    }

    static void draw(Canvas canvas, QueueScreenState state, List<Row> rows, int height) {
        boolean focused = state.focus == QueueScreenState.Focus.NODES;
        canvas.text("NODES", focused ? Palette.FOCUS_BOLD : Palette.DIM);
        canvas.text("  processes: " + state.processes.label + " (p)", Palette.DIM, new QueueTarget.Button(Input.character('p')));
        canvas.hit(0, 5, new QueueTarget.NodesPane());
        canvas.newline();
        int room = Math.max(0, height - 1);
        if (rows.isEmpty()) {
            if (room > 0) {
                canvas.line("  no queue nodes: add servers to queue.yml or config.yml", Palette.WARN);
            }
            return;
        }
        int selectedRow = 0;
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            if (row.target() instanceof QueueTarget.NodeBlock block && block.name().equals(state.selectedNode)) {
                selectedRow = i;
                break;
            }
        }
        int start = Math.max(0, Math.min(state.nodeScroll, rows.size() - room));
        if (selectedRow < start) {
            start = selectedRow;
        } else if (selectedRow >= start + room) {
            start = selectedRow - room + 1;
        }
        state.nodeScroll = start;
        for (int i = start; i < Math.min(rows.size(), start + room); i++) {
            Row row = rows.get(i);
            canvas.text(row.text());
            canvas.hitRow(row.target());
            canvas.newline(row.selected());
        }
    }

}
