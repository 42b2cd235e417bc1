package dev.nvidb.tui.monitor;

import dev.nvidb.output.Units;
import dev.nvidb.tui.Canvas;
import dev.nvidb.tui.Palette;
import java.util.List;

/** The history rows: sparklines of the selected GPU and the selected process over the last probes. */
final class HistoryLine {

    private HistoryLine() {
    }

    /** "gpu-1 GPU 0  util ▁▂█ 88%  vram ▃▃ 38%  temp ▅▅ 45C". */
    static void gpu(Canvas canvas, History history, GpuRow row, int width) {
        int spark = sparkWidth(width, 3);
        canvas.text("  " + row.node().name() + " GPU " + row.gpu().index(), Palette.DIM);
        series(canvas, "util", history.gpu(row.key(), History.GpuMetric.UTIL), 100, spark,
                Units.percent(row.gpu().utilPercent()));
        series(canvas, "vram", history.gpu(row.key(), History.GpuMetric.VRAM_PERCENT), 100, spark,
                Units.percent(row.gpu().memUsedPercent()));
        series(canvas, "temp", history.gpu(row.key(), History.GpuMetric.TEMPERATURE), 100, spark,
                row.gpu().temperatureC() == null ? "-" : row.gpu().temperatureC() + "C");
    }

    /** "pid 123  vram ▂▂ 29.3G  share ▂▂ 37%". */
    static void process(Canvas canvas, History history, ProcessRow row, int width) {
        int spark = sparkWidth(width, 2);
        canvas.text("  pid " + row.process().pid(), Palette.DIM);
        List<Double> vram = history.process(row.key(), History.ProcessMetric.VRAM_MB);
        Long total = row.gpu().gpu().memTotalMb();
        series(canvas, "vram", vram, total == null ? 0 : total, spark, row.process().memMb() == null ? "n/a"
                : Units.mebibytes(row.process().memMb()));
        series(canvas, "share", history.process(row.key(), History.ProcessMetric.GPU_SHARE), 100, spark,
                Units.percent(row.percentOfGpu()));
    }

    private static int sparkWidth(int width, int series) {
        return Math.max(4, Math.min(History.SAMPLES, (width - 20) / series - 14));
    }

    private static void series(Canvas canvas, String label, List<Double> values, double max, int width, String now) {
        canvas.text("  " + label + " ", Palette.DIM).text(Bars.sparkline(values, max, width), Palette.FOCUS)
                .text(" " + now);
    }
}
