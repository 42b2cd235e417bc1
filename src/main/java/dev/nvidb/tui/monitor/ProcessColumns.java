package dev.nvidb.tui.monitor;

import dev.nvidb.output.Units;
import dev.nvidb.tui.Palette;
import java.util.Comparator;
import java.util.List;

/**
 * The process table's columns, most important first. Each entry is one column; the sort keys
 * ({@code o} cycles them in this order, a header click picks one) are the sortable ones. Metrics
 * the agent reports from the node's /proc (CPU %, host memory %, RSS, elapsed time, state,
 * threads) are one entry each; an unknown figure prints as a dash and sorts last.
 */
final class ProcessColumns {

    static final String VRAM = "vram";
    static final String PID = "pid";
    static final String COMMAND = "command";
    static final String CPU = "cpu";
    static final String HOST_MEM = "host_mem";
    static final String RSS = "rss";
    static final String ELAPSED = "elapsed";

    private static final Comparator<ProcessRow> BY_VRAM = Comparator.comparing(
            (ProcessRow row) -> row.process().memMb() == null ? -1L : row.process().memMb(), Comparator.reverseOrder());
    private static final Comparator<ProcessRow> BY_PID = Comparator.comparingLong(row -> row.process().pid());

    static final List<Column<ProcessRow>> ALL = List.of(
            Column.<ProcessRow>of(PID, "PID", 8, true, 100, row -> Long.toString(row.process().pid()))
                    .sortedBy(BY_PID),
            Column.<ProcessRow>of("user", "USER", 10, false, 80, row -> orDash(row.process().user()))
                    .sortedBy(Comparator.comparing(row -> orDash(row.process().user()))),
            Column.<ProcessRow>of(VRAM, "VRAM", 7, true, 90, row -> row.process().memMb() == null ? "n/a"
                    : Units.mebibytes(row.process().memMb())).sortedBy(BY_VRAM),
            Column.<ProcessRow>of("gpu_share", "%GPU", 5, true, 60, row -> Units.percent(row.percentOfGpu()))
                    .styled(row -> row.percentOfGpu() != null && row.percentOfGpu() >= 90 ? Palette.WARN : null),
            Column.<ProcessRow>of(CPU, "CPU%", 5, true, 75, row -> Telemetry.percent(row.process().stats().cpuPercent()))
                    .sortedBy(descending(row -> row.process().stats().cpuPercent())),
            Column.<ProcessRow>of(HOST_MEM, "MEM%", 5, true, 55,
                    row -> Telemetry.percent(row.process().stats().hostMemPercent()))
                    .sortedBy(descending(row -> row.process().stats().hostMemPercent())),
            Column.<ProcessRow>of(RSS, "RSS", 6, true, 50, row -> Telemetry.bytes(row.process().stats().rssBytes()))
                    .sortedBy(descending(row -> row.process().stats().rssBytes() == null ? null
                            : row.process().stats().rssBytes().doubleValue())),
            Column.<ProcessRow>of(ELAPSED, "TIME", 8, true, 45,
                    row -> Telemetry.elapsed(row.process().stats().elapsedSeconds()))
                    .sortedBy(descending(row -> row.process().stats().elapsedSeconds() == null ? null
                            : row.process().stats().elapsedSeconds().doubleValue())),
            Column.<ProcessRow>of("state", "S", 1, false, 35, row -> Telemetry.state(row.process().stats())),
            Column.<ProcessRow>of("threads", "THR", 4, true, 25, row -> Telemetry.threads(row.process().stats())),
            Column.<ProcessRow>of("type", "TYPE", 8, false, 20, row -> orDash(row.process().type())),
            Column.<ProcessRow>of(COMMAND, "COMMAND", 0, false, 95, ProcessRow::commandLine)
                    .sortedBy(Comparator.comparing(ProcessRow::commandLine)));

    /** The sort keys in the order {@code o} cycles through them, starting at VRAM. */
    static final List<String> SORT_CYCLE = List.of(VRAM, CPU, HOST_MEM, RSS, ELAPSED, PID, COMMAND, "user");

    private ProcessColumns() {
    }

    static Column<ProcessRow> column(String key) {
        return ALL.stream().filter(column -> column.key().equals(key)).findFirst().orElse(ALL.get(2));
    }

    /** Rows sorted by {@code key} (reversed when asked), ties by pid. */
    static List<ProcessRow> sort(List<ProcessRow> rows, String key, boolean reversed) {
        Comparator<ProcessRow> order = column(key).order();
        if (order == null) {
            order = BY_VRAM;
        }
        if (reversed) {
            order = order.reversed();
        }
        return rows.stream().sorted(order.thenComparing(BY_PID)).toList();
    }

    /** Largest first, unknown last. */
    private static Comparator<ProcessRow> descending(java.util.function.Function<ProcessRow, Double> value) {
        return Comparator.comparing(value, Comparator.nullsLast(Comparator.reverseOrder()));
    }

    private static String orDash(String text) {
        return text == null || text.isEmpty() ? "-" : text;
    }
}
