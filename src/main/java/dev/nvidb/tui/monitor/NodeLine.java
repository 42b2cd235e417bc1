package dev.nvidb.tui.monitor;

import dev.nvidb.monitor.Capacity;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.output.Units;
import dev.nvidb.tui.Canvas;
import dev.nvidb.tui.Palette;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** A node's one-line summary: name, state, where it is, its GPUs in brief, or why it failed. */
final class NodeLine {

    private NodeLine() {
    }

    /** Writes the summary of {@code node} (after the marker) onto the current row. */
    static void write(Canvas canvas, NodeFeed node, boolean expandable, boolean expanded, Instant now) {
        if (expandable) {
            canvas.text(expanded ? "▾ " : "▸ ", Palette.DIM);
        }
        canvas.text(node.name(), Palette.FOCUS_BOLD).text("  ");
        if (node.latest() == null) {
            canvas.text("connecting…", Palette.DIM).text("  ").text(node.address(), Palette.DIM);
            return;
        }
        if (node.down()) {
            canvas.text("DOWN", Palette.ERROR_BOLD).text("  ").text(failure(node), Palette.ERROR);
            if (node.retryAt() != null) {
                long seconds = Math.max(0, Duration.between(now, node.retryAt()).toSeconds());
                canvas.text(seconds > 0 ? "  · retry in " + seconds + "s" : "  · retrying", Palette.DIM);
            }
            return;
        }
        NodeSnapshot snapshot = node.latest().snapshot();
        if (snapshot.gpus().isEmpty()) {
            canvas.text("NO GPU", Palette.WARN).text("  ").text(snapshot.error() == null ? "no GPUs reported"
                    : snapshot.error(), Palette.DIM);
            return;
        }
        canvas.text("up", Palette.OK).text("  ").text(where(node), Palette.DIM);
        canvas.text("  " + summary(snapshot.gpus()));
        if (snapshot.driverVersion() != null) {
            canvas.text("  driver " + snapshot.driverVersion(), Palette.DIM);
        }
        List<Double> load = snapshot.info().load();
        if (load != null && !load.isEmpty()) {
            canvas.text(String.format(Locale.ROOT, "  load %.2f", load.get(0)), Palette.DIM);
        }
        if (snapshot.error() != null) {
            canvas.text("  " + snapshot.error(), Palette.WARN);
        }
    }

    /** "2 GPUs, 1 available, util 44%, VRAM 30.0G/159G". */
    /** The capacity line: GPUs, available and busy ones, average utilisation, VRAM used/total and free. */
    static String summary(List<GpuSnapshot> gpus) {
        Capacity capacity = Capacity.ofGpus(gpus);
        StringBuilder text = new StringBuilder().append(capacity.gpus()).append(capacity.gpus() == 1 ? " GPU" : " GPUs");
        text.append(", ").append(capacity.available()).append(" available, ").append(capacity.busy()).append(" busy");
        if (capacity.averageUtilPercent() != null) {
            text.append(", util ").append(Math.round(capacity.averageUtilPercent())).append('%');
        }
        if (capacity.memTotalMb() > 0) {
            text.append(", VRAM ").append(Units.mebibytes(capacity.memUsedMb())).append('/')
                    .append(Units.mebibytes(capacity.memTotalMb())).append(" (").append(Units.mebibytes(capacity.memFreeMb()))
                    .append(" free)");
        }
        return text.toString();
    }

    static Integer averageUtil(List<GpuSnapshot> gpus) {
        List<Integer> known = gpus.stream().map(GpuSnapshot::utilPercent).filter(u -> u != null).toList();
        return known.isEmpty() ? null : (int) Math.round(known.stream().mapToInt(Integer::intValue).average().orElse(0));
    }

    /** The address, and the host name the node reported when it differs from the node's name. */
    static String where(NodeFeed node) {
        String host = node.answered() ? node.latest().snapshot().info().hostname() : null;
        String address = node.address();
        return host == null || host.equals(node.name()) ? address : address + " (" + host + ")";
    }

    /** The failure without the node's own name in front. */
    static String failure(NodeFeed node) {
        String failure = node.latest().failure();
        if (failure.startsWith(node.name() + ": ")) {
            return failure.substring(node.name().length() + 2);
        }
        return failure;
    }
}
