package dev.nvidb.daemon;

import dev.nvidb.model.TickReport;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Where a queue database's daemon listens, and the few lines spoken there. A client writes one
 * request line and reads the answer; the connection then closes.
 *
 * <pre>
 * wake                     → ok                  (a pass soon; the client does not wait)
 * fresh                    → as sync, but the pass under way (if any) will do: for readers
 * sync                     → done ran=1 ms=123   (after the tick of a pass that started after the
 *                            answered a b           request; then the report, one list per line,
 *                            failed x%20y           each word URL-encoded, ending with ".")
 *                            skipped
 *                            settled 4
 *                            placed 5 6
 *                            .
 *                          → failed              (the pass failed before its tick ended)
 * run                      → a command line to run here; what follows belongs to the handler
 *                            that {@link DaemonServer#serveCommands} installed
 * </pre>
 */
public final class DaemonWire {

    static final String WAKE = "wake";
    /** A command line handed to the daemon to run in its warm JVM (the body: see {@link Handoff}). */
    static final String RUN = "run";
    static final String SYNC = "sync";
    static final String FRESH = "fresh";
    static final String FAILED = "failed";
    static final String OK = "ok";
    static final String DONE = "done";
    static final String END = ".";

    private DaemonWire() {
    }

    /** The socket beside {@code database} ({@code queue.db} → {@code queue.db.daemon}). */
    public static Path socket(Path database) {
        return database.toAbsolutePath().resolveSibling(database.getFileName() + ".daemon");
    }

    /** The lock a daemon holds while it serves {@code database}, so one serves and a stale socket is replaced safely. */
    static Path lock(Path database) {
        return database.toAbsolutePath().resolveSibling(database.getFileName() + ".daemon.lock");
    }

    /** A tick report as the lines after {@code done}, the last one {@code .}. */
    static String encode(TickReport report) {
        StringBuilder out = new StringBuilder();
        out.append(DONE).append(" ran=").append(report.ran() ? 1 : 0).append(" ms=")
                .append(report.duration().toMillis()).append('\n');
        line(out, "answered", report.answered());
        line(out, "failed", report.failed());
        line(out, "skipped", report.skipped());
        line(out, "settled", report.settled().stream().map(String::valueOf).toList());
        line(out, "placed", report.placed().stream().map(String::valueOf).toList());
        return out.append(END).append('\n').toString();
    }

    private static void line(StringBuilder out, String name, List<String> words) {
        out.append(name);
        for (String word : words) {
            out.append(' ').append(URLEncoder.encode(word, StandardCharsets.UTF_8));
        }
        out.append('\n');
    }

    /** The report of {@code lines} (the answer to {@code sync}, {@code done} first, {@code .} excluded). */
    static TickReport decode(List<String> lines) {
        if (lines.size() != 6 || !lines.get(0).startsWith(DONE + " ")) {
            throw new IllegalArgumentException("not a tick report: " + lines);
        }
        boolean ran = false;
        long millis = 0;
        for (String field : lines.get(0).substring(DONE.length() + 1).split(" ")) {
            if (field.startsWith("ran=")) {
                ran = field.equals("ran=1");
            } else if (field.startsWith("ms=")) {
                millis = Long.parseLong(field.substring(3));
            }
        }
        return new TickReport(ran, words(lines.get(1), "answered", s -> s), words(lines.get(2), "failed", s -> s),
                words(lines.get(3), "skipped", s -> s), words(lines.get(4), "settled", Long::valueOf),
                words(lines.get(5), "placed", Long::valueOf), Duration.ofMillis(millis));
    }

    private static <T> List<T> words(String line, String name, Function<String, T> parse) {
        String[] parts = line.split(" ");
        if (!parts[0].equals(name)) {
            throw new IllegalArgumentException("expected '" + name + "', got: " + line);
        }
        List<T> values = new ArrayList<>();
        Arrays.stream(parts, 1, parts.length)
                .forEach(word -> values.add(parse.apply(URLDecoder.decode(word, StandardCharsets.UTF_8))));
        return values;
    }
}
