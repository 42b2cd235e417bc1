package dev.nvidb.web;

import dev.nvidb.error.NvidbException;
import dev.nvidb.history.GpuLog;
import dev.nvidb.history.NodeFailure;
import dev.nvidb.history.SampleQuery;
import dev.nvidb.history.SampleRow;
import dev.nvidb.history.SessionView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The History view's reads of the GPU log ({@code gpu_log.db}), through {@link GpuLog} only. The log
 * is opened on the first request that finds it (so one that {@code nvidb log} creates after the
 * dashboard started is seen) and kept open. No log is a 404 saying how to make one; a file that is
 * not a GPU log a 409; a read that fails a 500, each with the log's one line.
 */
public final class HistoryApi implements AutoCloseable {

    /** Rows a samples request returns unless it asks for fewer (or more, up to {@link #MAX_LIMIT}). */
    static final int DEFAULT_LIMIT = 50_000;
    static final int MAX_LIMIT = 500_000;

    private final Path file;
    private GpuLog log;

    /** @param file the GPU log ({@code $NVIDB_HOME/gpu_log.db} or {@code --db-path}) */
    public HistoryApi(Path file) {
        this.file = file;
    }

    /**
     * What is wrong with the log now, for the command's start: empty when it opens, else its one
     * line (missing, or not a GPU log).
     */
    public Optional<String> problem() {
        try {
            log();
            return Optional.empty();
        } catch (ApiException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** The GPU log this reads. */
    public Path file() {
        return file;
    }

    /** Whether the log file exists (a missing one is no warning: Live and Queue work without it). */
    public boolean exists() {
        return Files.exists(file);
    }

    JsonHistory.Sessions sessions() {
        GpuLog opened = log();
        return new JsonHistory.Sessions(dev.nvidb.output.Json.SCHEMA_VERSION, opened.file().toString(),
                read(opened::sessions).stream().map(JsonHistory.Session::of).toList());
    }

    JsonHistory.Samples samples(Parameters parameters) {
        Query query = query(parameters);
        GpuLog opened = log();
        List<SampleRow> rows = read(() -> opened.samples(query.sampleQuery(query.limit + 1)));
        boolean truncated = rows.size() > query.limit;
        List<NodeFailure> failures = read(() -> opened.failures(query.session, query.node)).stream()
                .filter(failure -> query.from == null || !failure.at().isBefore(query.from))
                .filter(failure -> query.to == null || failure.at().isBefore(query.to))
                .toList();
        return new JsonHistory.Samples(dev.nvidb.output.Json.SCHEMA_VERSION, query.session, query.node, query.gpu,
                JsonTimes.seconds(query.from), JsonTimes.seconds(query.to), query.limit, truncated,
                (truncated ? rows.subList(0, query.limit) : rows).stream().map(JsonHistory.Sample::of).toList(),
                failures.stream().map(JsonHistory.Failure::of).toList());
    }

    /** The same rows as {@link #samples}, as CSV (header first; RFC 4180 quoting; null is an empty field). */
    String samplesCsv(Parameters parameters) {
        Query query = query(parameters);
        GpuLog opened = log();
        return SampleCsv.of(read(() -> opened.samples(query.sampleQuery(query.limit))));
    }

    JsonHistory.Processes processes(Parameters parameters) {
        long session = session(parameters);
        String node = parameters.text("node");
        GpuLog opened = log();
        return new JsonHistory.Processes(dev.nvidb.output.Json.SCHEMA_VERSION, session, node,
                read(() -> opened.processes(session, node)).stream().map(JsonHistory.Process::of).toList());
    }

    /** A samples request's filters, checked. */
    private record Query(long session, String node, Integer gpu, Instant from, Instant to, int limit) {
        SampleQuery sampleQuery(int rows) {
            return new SampleQuery(session, node, gpu, from, to, rows);
        }
    }

    private Query query(Parameters parameters) {
        long session = session(parameters);
        Long gpu = parameters.whole("gpu", 0, 1023);
        Long limit = parameters.whole("limit", 1, MAX_LIMIT);
        Instant from = parameters.time("from");
        Instant to = parameters.time("to");
        if (from != null && to != null && to.isBefore(from)) {
            throw ApiException.badRequest("parameter to is before from: nothing can match");
        }
        return new Query(session, parameters.text("node"), gpu == null ? null : gpu.intValue(), from, to,
                limit == null ? DEFAULT_LIMIT : limit.intValue());
    }

    private long session(Parameters parameters) {
        Long session = parameters.whole("session", 1, Long.MAX_VALUE);
        if (session == null) {
            throw ApiException.badRequest("parameter session is required (an id from /api/history/sessions)");
        }
        GpuLog opened = log();
        SessionView view = read(() -> opened.session(session)).orElseThrow(() ->
                ApiException.notFound("no session " + session + " in the GPU log " + opened.file()));
        return view.id();
    }

    private synchronized GpuLog log() {
        if (log != null) {
            return log;
        }
        if (!Files.exists(file)) {
            throw ApiException.notFound("no GPU log at " + file.toAbsolutePath().normalize() + "; run 'nvidb log' first");
        }
        try {
            log = GpuLog.openExisting(file);
            return log;
        } catch (NvidbException e) {
            throw new ApiException(409, e.getMessage() + e.hint().map(hint -> "; " + hint).orElse(""));
        }
    }

    /** A read of the log; its failure (a damaged page, a locked file) is a 500 with the log's line. */
    private static <T> T read(java.util.function.Supplier<T> reading) {
        try {
            return reading.get();
        } catch (NvidbException e) {
            throw new ApiException(500, e.getMessage());
        }
    }

    @Override
    public synchronized void close() {
        if (log != null) {
            log.close();
            log = null;
        }
    }
}
