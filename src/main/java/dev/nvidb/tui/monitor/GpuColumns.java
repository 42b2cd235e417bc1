package dev.nvidb.tui.monitor;

import dev.nvidb.monitor.PcieScore;
import dev.nvidb.output.Units;
import dev.nvidb.tui.Palette;
import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedStyle;

/**
 * The columns of a single-line GPU row, one entry each. Node and host lead only in the flat
 * unified table (grouped rows and the per-node view name the node above them); the block bars
 * appear on terminals at least {@link #BARS_FROM} columns wide. PCIE names the link the card
 * runs on; RX/TX each direction's share of it, coloured by the busier one (green under 40 %,
 * yellow past, red past 70 %).
 */
final class GpuColumns {

    static final int BARS_FROM = 100;
    static final int NAME_MAX = 32;

    private GpuColumns() {
    }

    /** The columns for a table {@code width} wide; {@code flat} adds node and host. */
    static List<Column<GpuRow>> forWidth(int width, boolean flat) {
        boolean bars = width >= BARS_FROM;
        List<Column<GpuRow>> columns = new ArrayList<>();
        if (flat) {
            columns.add(Column.<GpuRow>of("node", "NODE", 12, false, 70, row -> row.node().name()));
            columns.add(Column.<GpuRow>of("host", "HOST", 15, false, 30, GpuColumns::host));
        }
        columns.add(Column.<GpuRow>of("index", "GPU", 3, true, 100, row -> Integer.toString(row.gpu().index())));
        columns.add(Column.<GpuRow>of("name", "NAME", 0, false, 85, row -> row.gpu().name() == null ? "?" : row.gpu().name()));
        columns.add(Column.<GpuRow>of("util", "UTIL", 4, true, 98, row -> Units.percent(row.gpu().utilPercent()))
                .styled(row -> level(row.gpu().utilPercent(), 101, 101)));
        if (bars) {
            columns.add(Column.<GpuRow>of("util_bar", "", 10, false, 10, row -> Bars.bar(row.gpu().utilPercent(), 10))
                    .styled(row -> Palette.FOCUS));
        }
        columns.add(Column.<GpuRow>of("vram", "VRAM", 11, true, 95, row -> Units.mebibytes(row.gpu().memUsedMb()) + "/"
                + Units.mebibytes(row.gpu().memTotalMb())));
        columns.add(Column.<GpuRow>of("mem", "MEM%", 4, true, 90, row -> Units.percent(row.gpu().memUsedPercent()))
                .styled(row -> level(row.gpu().memUsedPercent(), 90, 98)));
        if (bars) {
            columns.add(Column.<GpuRow>of("mem_bar", "", 10, false, 9, row -> Bars.bar(row.gpu().memUsedPercent(), 10))
                    .styled(row -> level(row.gpu().memUsedPercent(), 90, 98) == null ? Palette.FOCUS
                            : level(row.gpu().memUsedPercent(), 90, 98)));
        }
        columns.add(Column.<GpuRow>of("temp", "TEMP", 4, true, 60, row -> row.gpu().temperatureC() == null ? "-"
                : row.gpu().temperatureC() + "C").styled(row -> level(row.gpu().temperatureC(), 75, 85)));
        columns.add(Column.<GpuRow>of("power", "POWER", 5, true, 40, row -> row.gpu().powerW() == null ? "-"
                : Math.round(row.gpu().powerW()) + "W"));
        columns.add(Column.<GpuRow>of("pcie", "PCIE", 6, false, 35, row -> Telemetry.link(row.gpu())));
        columns.add(Column.<GpuRow>of("rx_tx", "RX/TX", 9, true, 33, row -> Telemetry.shares(PcieScore.of(row.gpu().pcie())))
                .styled(row -> Telemetry.shareStyle(PcieScore.Level.of(PcieScore.of(row.gpu().pcie()).peakPercent()))));
        columns.add(Column.<GpuRow>of("procs", "PROCS", 5, true, 50, row -> Integer.toString(row.gpu().processes().size())));
        return columns;
    }

    /** The host a row's node is on: what the node reported, else its address. */
    static String host(GpuRow row) {
        String reported = row.node().answered() ? row.node().latest().snapshot().info().hostname() : null;
        return reported != null ? reported : row.node().address();
    }

    /** Yellow from {@code warn}, red from {@code error}, else no colour of its own. */
    static AttributedStyle level(Integer value, int warn, int error) {
        if (value == null) {
            return null;
        }
        if (value >= error) {
            return Palette.ERROR;
        }
        return value >= warn ? Palette.WARN : null;
    }
}
