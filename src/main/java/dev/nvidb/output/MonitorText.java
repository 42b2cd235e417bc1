package dev.nvidb.output;

import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
import dev.nvidb.monitor.Capacity;
import dev.nvidb.monitor.PcieScore;
import java.util.List;
import java.util.Locale;

/**
 * The plain-text report of {@code nvidb --once}: per node a status line, a GPU table and the
 * processes on each GPU, then the capacity line over all GPUs. A node that failed shows its
 * error in its place. From 84 columns the table names each GPU's PCIe link, from 95 also its
 * RX/TX share of that link. Pure: results in, text out.
 */
public final class MonitorText {

    /** The GPU name column at 80 columns; a wider terminal widens it up to the longest name. */
    private static final int NAME_WIDTH = 26;
    /** A GPU row with that name column and no PCIe columns. */
    private static final int ROW_WIDTH = 50 + NAME_WIDTH;
    /** The PCIe link column ("  4.0x16") and the share column ("  100%/100%"), with their gaps. */
    private static final int LINK_COLUMN = 8;
    private static final int SHARE_COLUMN = 11;

    private MonitorText() {
    }

    /** Renders every node, in order, for a terminal {@code width} columns wide. */
    public static String render(List<ProbeResult> results, int width) {
        return render(results, width, TextStyle.PLAIN);
    }

    /** As {@link #render(List, int)}, node states and errors painted by {@code style}. */
    public static String render(List<ProbeResult> results, int width, TextStyle style) {
        int longest = results.stream().flatMap(result -> result.findSnapshot().stream())
                .flatMap(snapshot -> snapshot.gpus().stream()).mapToInt(gpu -> gpu.name() == null ? 0 : gpu.name().length())
                .max().orElse(0);
        Columns columns = Columns.forWidth(width, longest);
        StringBuilder out = new StringBuilder();
        for (ProbeResult result : results) {
            node(out, result, width, columns, style);
        }
        Capacity capacity = Capacity.of(results);
        if (capacity.gpus() > 0) {
            out.append(Units.fit(capacityLine(capacity), Math.max(width, 40))).append('\n');
        }
        return out.toString();
    }

    /**
     * The capacity line, {@code capacity  avail 3/8  busy 4  util 52%  VRAM 120.0G/640.0G  free 520.0G}:
     * available of all GPUs, busy GPUs, {@code unknown N} when GPUs failed, the average
     * utilisation, memory used/total and free (see {@link Capacity}).
     */
    static String capacityLine(Capacity capacity) {
        StringBuilder line = new StringBuilder("capacity  avail ").append(capacity.available()).append('/')
                .append(capacity.gpus()).append("  busy ").append(capacity.busy());
        if (capacity.unknown() > 0) {
            line.append("  unknown ").append(capacity.unknown());
        }
        Double average = capacity.averageUtilPercent();
        line.append("  util ").append(average == null ? "-" : Math.round(average) + "%");
        line.append("  VRAM ").append(Units.mebibytes(capacity.memUsedMb())).append('/')
                .append(Units.mebibytes(capacity.memTotalMb())).append("  free ")
                .append(Units.mebibytes(capacity.memFreeMb()));
        return line.toString();
    }

    /** Which optional columns fit, and how wide the name column is. */
    private record Columns(int nameWidth, boolean link, boolean share) {

        static Columns forWidth(int width, int longestName) {
            boolean link = width >= ROW_WIDTH + LINK_COLUMN;
            boolean share = link && width >= ROW_WIDTH + LINK_COLUMN + SHARE_COLUMN;
            int extra = (link ? LINK_COLUMN : 0) + (share ? SHARE_COLUMN : 0);
            int nameWidth = Math.max(NAME_WIDTH, Math.min(longestName, NAME_WIDTH + Math.max(0, width - 80 - extra)));
            return new Columns(nameWidth, link, share);
        }

        String header() {
            return (link ? String.format(Locale.ROOT, "  %-6s", "PCIE") : "")
                    + (share ? String.format(Locale.ROOT, "  %9s", "RX/TX") : "");
        }

        /** The PCIe cells of a row; the share painted as the busier direction's level. */
        String cells(GpuSnapshot gpu, TextStyle style) {
            if (!link) {
                return "";
            }
            PcieScore score = PcieScore.of(gpu.pcie());
            String cells = String.format(Locale.ROOT, "  %-6s", score.link() == null ? "-" : score.link().label());
            if (share) {
                String text = String.format(Locale.ROOT, "%9s", share(score.rxPercent()) + "/" + share(score.txPercent()));
                cells += "  " + switch (PcieScore.Level.of(score.peakPercent())) {
                    case SATURATED -> style.bad(text);
                    case HIGH -> style.warn(text);
                    case NORMAL, UNKNOWN -> text;
                };
            }
            return cells;
        }

        private static String share(Double percent) {
            return percent == null ? "-" : Math.round(percent) + "%";
        }
    }

    private static void node(StringBuilder out, ProbeResult result, int width, Columns columns, TextStyle style) {
        NodeSnapshot snapshot = result.snapshot();
        if (snapshot == null) {
            out.append(Printable.of(result.node())).append("  ").append(style.bad("DOWN")).append("  ")
                    .append(Printable.of(withoutNodeName(result)))
                    .append('\n');
            return;
        }
        if (result.degraded()) {
            out.append(Printable.of(result.node())).append("  ").append(style.warn("NO GPU")).append("  ")
                    .append(Printable.of(snapshot.error()))
                    .append('\n');
            return;
        }
        out.append(Printable.of(result.node())).append("  ").append(style.good("up")).append("  ")
                .append(Printable.of(result.address()));
        String host = snapshot.info().hostname();
        if (host != null && !host.equals(result.node())) {
            out.append(" (").append(Printable.of(host)).append(')');
        }
        out.append("  ").append(snapshot.gpus().size()).append(snapshot.gpus().size() == 1 ? " GPU" : " GPUs");
        if (snapshot.driverVersion() != null) {
            out.append("  driver ").append(Printable.of(snapshot.driverVersion()));
        }
        List<Double> load = snapshot.info().load();
        if (load != null && !load.isEmpty()) {
            out.append(String.format(Locale.ROOT, "  load %.2f", load.get(0)));
        }
        if (snapshot.source() != GpuSource.NVML) {
            out.append("  via ").append(snapshot.source().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        out.append('\n');
        if (snapshot.error() != null) {
            out.append("  ").append(style.warn("note:")).append(' ').append(Printable.of(snapshot.error())).append('\n');
        }
        if (!snapshot.gpus().isEmpty()) {
            out.append(String.format(Locale.ROOT, "  %-3s %-" + columns.nameWidth() + "s %5s  %-17s %4s  %5s  %5s",
                    "GPU", "NAME", "UTIL", "MEMORY", "MEM%", "TEMP", "POWER")).append(columns.header()).append('\n');
        }
        for (GpuSnapshot gpu : snapshot.gpus()) {
            gpu(out, gpu, width, columns, style);
            for (var claim : snapshot.claims().on(gpu.uuid())) {
                out.append(Units.fit("      claimed by " + Printable.of(claim.describe(gpu.uuid())), Math.max(width, 40)))
                        .append('\n');
            }
        }
        SharingText.append(out, snapshot.claims(), style);
    }

    /** "gpu-c (127.0.0.4:22): no answer" reads "127.0.0.4:22  no answer" after the node's own name. */
    private static String withoutNodeName(ProbeResult result) {
        String failure = result.failure();
        String prefix = result.node() + " (";
        int close = failure.indexOf("): ");
        if (failure.startsWith(prefix) && close > prefix.length()) {
            return failure.substring(prefix.length(), close) + "  " + failure.substring(close + 3);
        }
        if (failure.startsWith(result.node() + ": ")) {
            return failure.substring(result.node().length() + 2);
        }
        return failure;
    }

    private static void gpu(StringBuilder out, GpuSnapshot gpu, int width, Columns columns, TextStyle style) {
        int nameWidth = columns.nameWidth();
        String name = Units.fit(Printable.of(gpu.name()), nameWidth);
        if (gpu.error() != null) {
            out.append(String.format(Locale.ROOT, "  %-3d %-" + nameWidth + "s %s %s%n", gpu.index(), name,
                    style.bad("error:"), Printable.of(gpu.error())));
            return;
        }
        String memory = Units.mebibytes(gpu.memUsedMb()) + " / " + Units.mebibytes(gpu.memTotalMb());
        String power = gpu.powerW() == null ? "-" : Math.round(gpu.powerW()) + "W";
        String temperature = gpu.temperatureC() == null ? "-" : gpu.temperatureC() + "C";
        out.append(String.format(Locale.ROOT, "  %-3d %-" + nameWidth + "s %5s  %-17s %4s  %5s  %5s", gpu.index(), name,
                Units.percent(gpu.utilPercent()), memory, Units.percent(gpu.memUsedPercent()), temperature, power))
                .append(columns.cells(gpu, style)).append('\n');
        for (GpuProcess process : gpu.processes()) {
            String memoryHeld = process.memMb() == null ? "n/a" : Units.mebibytes(process.memMb());
            String line = String.format(Locale.ROOT, "      %-8d %-10s %7s  %s", process.pid(),
                    Units.fit(process.user() == null ? "?" : Printable.of(process.user()), 10), memoryHeld,
                    Printable.of(process.command() != null ? process.command() : process.name() != null ? process.name() : "?"));
            out.append(Units.fit(line, Math.max(width, 40))).append('\n');
        }
    }
}
