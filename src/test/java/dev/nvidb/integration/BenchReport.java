package dev.nvidb.integration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The tables {@code bench/run} prints and writes into {@code docs/benchmarks.md}, between two
 * markers (the section is replaced on each run; the rest of the page is kept). Pure text.
 */
final class BenchReport {

    static final String BEGIN = "<!-- bench/run: begin (written by bench/run; edits here are overwritten) -->";
    static final String END = "<!-- bench/run: end -->";

    /** One figure: without and with the daemon, its target and whether each column meets it. */
    record Row(String figure, String without, String with, String target, String met) {
    }

    private final List<String> header = new ArrayList<>();
    private final List<Row> rows = new ArrayList<>();
    private final List<String> network = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    void header(String line) {
        header.add(line);
    }

    void row(Row row) {
        rows.add(row);
        System.out.printf("%-58s %-22s %-22s %s %s%n", row.figure(), row.without(), row.with(), row.target(), row.met());
    }

    /** A row of the network table, already in Markdown. */
    void network(String row) {
        network.add(row);
        System.out.println(row);
    }

    void note(String line) {
        notes.add(line);
        System.out.println("  " + line);
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append(BEGIN).append("\n\n## Current figures (`bench/run`)\n\n");
        header.forEach(line -> md.append(line).append('\n'));
        md.append("\n| figure | without the daemon | with the daemon | target | met? |\n|---|---|---|---|---|\n");
        for (Row row : rows) {
            md.append("| ").append(row.figure()).append(" | ").append(row.without()).append(" | ").append(row.with())
                    .append(" | ").append(row.target()).append(" | ").append(row.met()).append(" |\n");
        }
        if (!network.isEmpty()) {
            md.append("\n### Across a network (a `LatencyRelay` between the client and each node)\n\n");
            md.append("| added round trip | 1 node | 4 nodes | 4 / 1 | 4 nodes, 16 jobs running | round trips per tick "
                    + "(from the times) | connections, turns per node (counted at the relay) | with the daemon, 4 nodes |\n");
            md.append("|---|---|---|---|---|---|---|---|\n");
            network.forEach(row -> md.append(row).append('\n'));
        }
        if (!notes.isEmpty()) {
            md.append('\n');
            notes.forEach(line -> md.append("- ").append(line).append('\n'));
        }
        md.append('\n').append(END).append('\n');
        return md.toString();
    }

    /**
     * Writes the section into {@code page}: in place of the marked one, or (first run) before the
     * page's first second-level heading after "How to run", else at the end.
     */
    void writeInto(Path page) throws IOException {
        String text = Files.readString(page);
        String section = markdown();
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        String updated;
        if (begin >= 0 && end > begin) {
            updated = text.substring(0, begin) + section + text.substring(end + END.length()).replaceFirst("^\n", "");
        } else {
            int howTo = text.indexOf("\n## How to run");
            int next = howTo < 0 ? -1 : text.indexOf("\n## ", howTo + 1);
            updated = next < 0 ? text + "\n" + section : text.substring(0, next + 1) + section + "\n" + text.substring(next + 1);
        }
        Files.writeString(page, updated);
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get((sorted.size() - 1) / 2);
    }

    static double quantile(List<Double> values, double q) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.isEmpty() ? Double.NaN : sorted.get((int) Math.min(sorted.size() - 1, Math.round(q * (sorted.size() - 1))));
    }

    static String ms(double ms) {
        if (Double.isNaN(ms)) {
            return "—";
        }
        return ms >= 10_000 ? String.format(Locale.ROOT, "%.1f s", ms / 1000) : String.format(Locale.ROOT, "%.0f ms", ms);
    }

    static String ratio(double a, double b) {
        return String.format(Locale.ROOT, "%.2f×", a / b);
    }

    static String verdict(boolean met) {
        return met ? "yes" : "**no**";
    }
}
