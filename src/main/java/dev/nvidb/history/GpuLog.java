package dev.nvidb.history;

import static dev.nvidb.sqlite.Columns.doubleOrNull;
import static dev.nvidb.sqlite.Columns.intOrNull;
import static dev.nvidb.sqlite.Columns.longOrNull;

import dev.nvidb.error.StoreException;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
import dev.nvidb.sqlite.Columns;
import dev.nvidb.sqlite.SqliteFile;
import dev.nvidb.sqlite.Transactions;
import dev.nvidb.sqlite.Wording;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The GPU history ({@code gpu_log.db}): its own SQLite file in WAL mode, so {@code nvidb web} reads
 * while {@code nvidb log} writes. One connection, used by one thread at a time (every method is
 * synchronized); each recorded probe is one transaction. See {@link LogSchema} for the tables.
 */
public final class GpuLog implements AutoCloseable {

    private static final int PRUNE_BATCH = 5_000;
    private static final Duration BUSY_TIMEOUT = Duration.ofSeconds(10);

    private final Path file;
    private final Transactions transactions;
    /** Ids and open process spans of what this log recorded, to write a sample in few statements. */
    private final SampleRows rows = new SampleRows();

    private GpuLog(Path file, Transactions transactions) {
        this.file = file;
        this.transactions = transactions;
    }

    /**
     * How the GPU log words SQLite's failures: "cannot &lt;action&gt; in &lt;file&gt;: &lt;reason&gt;", a busy
     * hint (a shared-cache or virtual-table lock included), and a damaged file as "not a readable GPU log".
     */
    private static Wording wording(Path file) {
        return Wording.plain().in(file)
                .busy("another process held the GPU log too long; try again", true)
                .damaged(file + " is not a readable GPU log", "move it aside; 'nvidb log' starts a new one");
    }

    /** Opens the log at {@code file} for writing: creates it (and its folder) when missing, brings its schema up to date. */
    public static GpuLog open(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        if (Files.isDirectory(absolute)) {
            throw new StoreException(absolute + " is a directory, not a GPU log file",
                    "give a file path, such as " + absolute.resolve("gpu_log.db"));
        }
        SqliteFile.createOwnerOnly(absolute, "--db-path");
        Wording wording = wording(absolute);
        return new GpuLog(absolute, new Transactions(SqliteFile.open(absolute, BUSY_TIMEOUT, wording, "open",
                connection -> LogSchema.migrate(connection, absolute, BUSY_TIMEOUT)), wording));
    }

    /** Opens an existing log for reading; a missing file, or one that is not a GPU log, is one clear error. */
    public static GpuLog openExisting(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        if (!Files.isRegularFile(absolute)) {
            throw new StoreException("no GPU log at " + absolute, "run 'nvidb log' first (or give --db-path)");
        }
        if (!Files.isReadable(absolute)) {
            throw new StoreException("cannot read the GPU log " + absolute + ": permission denied",
                    "check the file's owner and mode");
        }
        Wording wording = wording(absolute);
        return new GpuLog(absolute, new Transactions(SqliteFile.open(absolute, BUSY_TIMEOUT, wording, "open",
                connection -> LogSchema.check(connection, absolute)), wording));
    }

    /** The log's file. */
    public Path file() {
        return file;
    }

    // ---------------------------------------------------------------- writing

    /** Starts a session and returns its id. */
    public synchronized long startSession(Instant at, Duration interval, String host, long pid, List<String> nodes) {
        return write("start a session", connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO sessions (started_at, interval_ms, host, pid, nodes) VALUES (?, ?, ?, ?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                insert.setLong(1, at.toEpochMilli());
                insert.setLong(2, interval.toMillis());
                insert.setString(3, host);
                insert.setLong(4, pid);
                insert.setString(5, String.join("\n", nodes));
                insert.executeUpdate();
                try (ResultSet keys = insert.getGeneratedKeys()) {
                    keys.next();
                    return keys.getLong(1);
                }
            }
        });
    }

    /**
     * Records one probe of one node taken at {@code at}: a sample row, and for a node that
     * answered a row per GPU and its processes' spans. A node that did not answer, or answered
     * without GPUs because of a node-level problem (no driver), is a sample with its failure.
     */
    public synchronized void record(long sessionId, ProbeResult result, Instant at) {
        write("record a sample of " + result.node(), connection -> {
            long nodeId = rows.nodeId(connection, result.node());
            NodeSnapshot snapshot = result.snapshot();
            String failure = result.failure() != null ? result.failure() : result.degraded() ? snapshot.error() : null;
            long sampleId;
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO samples (session_id, node_id, at, elapsed_ms, failure) VALUES (?, ?, ?, ?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                insert.setLong(1, sessionId);
                insert.setLong(2, nodeId);
                insert.setLong(3, at.toEpochMilli());
                insert.setLong(4, result.elapsed() == null ? 0 : result.elapsed().toMillis());
                insert.setString(5, failure);
                insert.executeUpdate();
                try (ResultSet keys = insert.getGeneratedKeys()) {
                    keys.next();
                    sampleId = keys.getLong(1);
                }
            }
            Map<String, Long> seen = new HashMap<>();
            if (failure == null) {
                for (GpuSnapshot gpu : snapshot.gpus()) {
                    long gpuId = rows.gpuId(connection, nodeId, gpu);
                    rows.insertGpuSample(connection, sampleId, gpuId, gpu);
                    for (GpuProcess process : gpu.processes()) {
                        rows.span(connection, result.node(), sessionId, gpuId, process, at, seen);
                    }
                }
            }
            rows.spansSeen(result.node(), seen);
            try (PreparedStatement count = connection.prepareStatement(
                    "UPDATE sessions SET samples = samples + 1, failures = failures + ? WHERE id = ?")) {
                count.setInt(1, failure == null ? 0 : 1);
                count.setLong(2, sessionId);
                count.executeUpdate();
            }
            return null;
        });
    }

    /** Ends a session, saying why. */
    public synchronized void endSession(long sessionId, Instant at, String reason) {
        write("end session " + sessionId, connection -> {
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL")) {
                update.setLong(1, at.toEpochMilli());
                update.setString(2, reason);
                update.setLong(3, sessionId);
                update.executeUpdate();
            }
            return null;
        });
    }

    /**
     * Removes what is older than {@code cutoff}: samples (with their GPU rows), process spans last
     * seen before it, and sessions left with no samples that started before it, except
     * {@code keepSession} (the session running now). Deletes in batches, so the writer lock is
     * never held long. Returns the number of samples removed.
     */
    public synchronized long prune(Instant cutoff, long keepSession) {
        long removed = 0;
        long cut = cutoff.toEpochMilli();
        while (true) {
            int batch = write("remove old samples", connection -> {
                try (PreparedStatement delete = connection.prepareStatement(
                        "DELETE FROM samples WHERE id IN (SELECT id FROM samples WHERE at < ? ORDER BY at LIMIT ?)")) {
                    delete.setLong(1, cut);
                    delete.setInt(2, PRUNE_BATCH);
                    return delete.executeUpdate();
                }
            });
            removed += batch;
            if (batch < PRUNE_BATCH) {
                break;
            }
        }
        write("remove old sessions", connection -> {
            try (PreparedStatement spans = connection.prepareStatement("DELETE FROM process_spans WHERE last_seen < ?");
                 PreparedStatement sessions = connection.prepareStatement("DELETE FROM sessions WHERE started_at < ? AND id <> ?"
                         + " AND NOT EXISTS (SELECT 1 FROM samples WHERE samples.session_id = sessions.id)")) {
                spans.setLong(1, cut);
                spans.executeUpdate();
                sessions.setLong(1, cut);
                sessions.setLong(2, keepSession);
                sessions.executeUpdate();
            }
            return null;
        });
        return removed;
    }

    // ---------------------------------------------------------------- reading

    /** Every session, newest first. */
    public synchronized List<SessionView> sessions() {
        return read("list sessions", connection -> sessionsWhere(connection, "", null));
    }

    /** A session without an end: its process still writes, or was killed. */
    public record OpenSession(long id, String host, long pid) {
    }

    /** The sessions that have not ended, oldest first. */
    public synchronized List<OpenSession> openSessions() {
        return read("list open sessions", connection -> {
            List<OpenSession> open = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT id, host, pid FROM sessions WHERE ended_at IS NULL ORDER BY id");
                 ResultSet r = select.executeQuery()) {
                while (r.next()) {
                    open.add(new OpenSession(r.getLong(1), r.getString(2), r.getLong(3)));
                }
            }
            return open;
        });
    }

    /** One session. */
    public synchronized Optional<SessionView> session(long id) {
        return read("read session " + id, connection -> sessionsWhere(connection, "WHERE id = ?", id).stream().findFirst());
    }

    /** GPU samples of a session, ordered by time, node and GPU. */
    public synchronized List<SampleRow> samples(SampleQuery query) {
        StringBuilder sql = new StringBuilder("""
                SELECT s.at, n.name, g.gpu_index, g.name, g.uuid, gs.util, gs.mem_util, gs.mem_used_mb, g.mem_total_mb,
                       gs.temperature_c, gs.power_dw, g.power_limit_w, gs.processes
                FROM samples s
                JOIN nodes n ON n.id = s.node_id
                JOIN gpu_samples gs ON gs.sample_id = s.id
                JOIN gpus g ON g.id = gs.gpu_id
                WHERE s.session_id = ?""");
        List<Object> args = new ArrayList<>(List.of(query.sessionId()));
        filters(sql, args, query.node(), query.from(), query.to());
        if (query.gpu() != null) {
            sql.append(" AND g.gpu_index = ?");
            args.add(query.gpu());
        }
        sql.append(" ORDER BY s.at, n.name, g.gpu_index LIMIT ?");
        args.add(query.limit());
        return read("read samples of session " + query.sessionId(), connection -> {
            List<SampleRow> rows = new ArrayList<>();
            try (PreparedStatement select = prepare(connection, sql.toString(), args); ResultSet r = select.executeQuery()) {
                while (r.next()) {
                    Long powerDw = longOrNull(r, 11);
                    rows.add(new SampleRow(Instant.ofEpochMilli(r.getLong(1)), r.getString(2), r.getInt(3), r.getString(4),
                            emptyToNull(r.getString(5)), intOrNull(r, 6), intOrNull(r, 7), longOrNull(r, 8),
                            longOrNull(r, 9), intOrNull(r, 10), powerDw == null ? null : powerDw / 10.0,
                            doubleOrNull(r, 12), r.getInt(13)));
                }
            }
            return rows;
        });
    }

    /** The probes of a session that a node did not answer, oldest first. */
    public synchronized List<NodeFailure> failures(long sessionId, String node) {
        StringBuilder sql = new StringBuilder("SELECT s.at, n.name, s.failure FROM samples s JOIN nodes n ON n.id = s.node_id"
                + " WHERE s.session_id = ? AND s.failure IS NOT NULL");
        List<Object> args = new ArrayList<>(List.of(sessionId));
        filters(sql, args, node, null, null);
        sql.append(" ORDER BY s.at, n.name");
        return read("read failures of session " + sessionId, connection -> {
            List<NodeFailure> rows = new ArrayList<>();
            try (PreparedStatement select = prepare(connection, sql.toString(), args); ResultSet r = select.executeQuery()) {
                while (r.next()) {
                    rows.add(new NodeFailure(Instant.ofEpochMilli(r.getLong(1)), r.getString(2), r.getString(3)));
                }
            }
            return rows;
        });
    }

    /** The processes a session saw, by first sight. */
    public synchronized List<ProcessSpan> processes(long sessionId, String node) {
        StringBuilder sql = new StringBuilder("""
                SELECT n.name, g.gpu_index, p.pid, p.user, p.name, p.command, p.first_seen, p.last_seen, p.mem_mb, p.peak_mem_mb
                FROM process_spans p
                JOIN gpus g ON g.id = p.gpu_id
                JOIN nodes n ON n.id = g.node_id
                WHERE p.session_id = ?""");
        List<Object> args = new ArrayList<>(List.of(sessionId));
        if (node != null) {
            sql.append(" AND n.name = ?");
            args.add(node);
        }
        sql.append(" ORDER BY p.first_seen, n.name, g.gpu_index, p.pid");
        return read("read processes of session " + sessionId, connection -> {
            List<ProcessSpan> rows = new ArrayList<>();
            try (PreparedStatement select = prepare(connection, sql.toString(), args); ResultSet r = select.executeQuery()) {
                while (r.next()) {
                    rows.add(new ProcessSpan(r.getString(1), r.getInt(2), r.getLong(3), r.getString(4), r.getString(5),
                            r.getString(6), Instant.ofEpochMilli(r.getLong(7)), Instant.ofEpochMilli(r.getLong(8)),
                            longOrNull(r, 9), longOrNull(r, 10)));
                }
            }
            return rows;
        });
    }

    @Override
    public synchronized void close() {
        transactions.close("close");
    }

    // ---------------------------------------------------------------- internals

    private static List<SessionView> sessionsWhere(Connection connection, String where, Long id) throws SQLException {
        List<SessionView> sessions = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT id, started_at, ended_at, interval_ms, host,"
                + " nodes, end_reason, samples, failures FROM sessions " + where + " ORDER BY started_at DESC, id DESC")) {
            if (id != null) {
                select.setLong(1, id);
            }
            try (ResultSet r = select.executeQuery()) {
                while (r.next()) {
                    Long ended = longOrNull(r, 3);
                    String nodes = r.getString(6);
                    sessions.add(new SessionView(r.getLong(1), Instant.ofEpochMilli(r.getLong(2)),
                            ended == null ? null : Instant.ofEpochMilli(ended), Duration.ofMillis(r.getLong(4)),
                            r.getString(5), nodes.isEmpty() ? List.of() : List.of(nodes.split("\n")), r.getString(7),
                            r.getLong(8), r.getLong(9)));
                }
            }
        }
        return sessions;
    }

    /** A write transaction; when it rolls back, ids it wrote may be gone, so the caches forget them. */
    private <T> T write(String action, Transactions.Work<T> work) {
        boolean committed = false;
        try {
            T result = transactions.write(action, work);
            committed = true;
            return result;
        } finally {
            if (!committed) {
                rows.forgetIds();
            }
        }
    }

    private <T> T read(String action, Transactions.Work<T> work) {
        return transactions.read(action, work);
    }

    private static void filters(StringBuilder sql, List<Object> args, String node, Instant from, Instant to) {
        if (node != null) {
            sql.append(" AND n.name = ?");
            args.add(node);
        }
        if (from != null) {
            sql.append(" AND s.at >= ?");
            args.add(from.toEpochMilli());
        }
        if (to != null) {
            sql.append(" AND s.at < ?");
            args.add(to.toEpochMilli());
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql, List<Object> args) throws SQLException {
        return Columns.bind(connection.prepareStatement(sql), args.toArray());
    }

    /** The GPU's UUID column: '' when the driver reported none. */
    private static String emptyToNull(String text) {
        return text == null || text.isEmpty() ? null : text;
    }
}
