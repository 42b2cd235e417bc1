package dev.nvidb.history;

import static dev.nvidb.history.LogSql.closeQuietly;
import static dev.nvidb.history.LogSql.connect;
import static dev.nvidb.history.LogSql.create;
import static dev.nvidb.history.LogSql.emptyToNull;
import static dev.nvidb.history.LogSql.failure;
import static dev.nvidb.history.LogSql.filters;
import static dev.nvidb.history.LogSql.nullableDouble;
import static dev.nvidb.history.LogSql.nullableInt;
import static dev.nvidb.history.LogSql.nullableLong;
import static dev.nvidb.history.LogSql.prepare;
import static dev.nvidb.history.LogSql.rollback;
import static dev.nvidb.history.LogSql.setInt;
import static dev.nvidb.history.LogSql.setLong;

import dev.nvidb.error.StoreException;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
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

    private final Path file;
    private final Connection connection;
    /** Ids and open process spans of what this log recorded, to write a sample in few statements. */
    private final SampleRows rows = new SampleRows();

    private GpuLog(Path file, Connection connection) {
        this.file = file;
        this.connection = connection;
    }

    /** Opens the log at {@code file} for writing: creates it (and its folder) when missing, brings its schema up to date. */
    public static GpuLog open(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        create(absolute);
        Connection connection = connect(absolute);
        try {
            LogSchema.migrate(connection, absolute.toString());
            return new GpuLog(absolute, connection);
        } catch (SQLException e) {
            closeQuietly(connection);
            throw failure("open", absolute, e);
        } catch (RuntimeException e) {
            closeQuietly(connection);
            throw e;
        }
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
        Connection connection = connect(absolute);
        try {
            LogSchema.check(connection, absolute.toString());
            return new GpuLog(absolute, connection);
        } catch (SQLException e) {
            closeQuietly(connection);
            throw failure("open", absolute, e);
        } catch (RuntimeException e) {
            closeQuietly(connection);
            throw e;
        }
    }

    /** The log's file. */
    public Path file() {
        return file;
    }

    // ---------------------------------------------------------------- writing

    /** Starts a session and returns its id. */
    public synchronized long startSession(Instant at, Duration interval, String host, long pid, List<String> nodes) {
        return write("start a session", () -> {
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
        write("record a sample of " + result.node(), () -> {
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
        write("end session " + sessionId, () -> {
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
            int batch = write("remove old samples", () -> {
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
        write("remove old sessions", () -> {
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
        return read("list sessions", () -> sessionsWhere("", null));
    }

    /** A session without an end: its process still writes, or was killed. */
    public record OpenSession(long id, String host, long pid) {
    }

    /** The sessions that have not ended, oldest first. */
    public synchronized List<OpenSession> openSessions() {
        return read("list open sessions", () -> {
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
        return read("read session " + id, () -> sessionsWhere("WHERE id = ?", id).stream().findFirst());
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
        return read("read samples of session " + query.sessionId(), () -> {
            List<SampleRow> rows = new ArrayList<>();
            try (PreparedStatement select = prepare(connection, sql.toString(), args); ResultSet r = select.executeQuery()) {
                while (r.next()) {
                    Long powerDw = nullableLong(r, 11);
                    rows.add(new SampleRow(Instant.ofEpochMilli(r.getLong(1)), r.getString(2), r.getInt(3), r.getString(4),
                            emptyToNull(r.getString(5)), nullableInt(r, 6), nullableInt(r, 7), nullableLong(r, 8),
                            nullableLong(r, 9), nullableInt(r, 10), powerDw == null ? null : powerDw / 10.0,
                            nullableDouble(r, 12), r.getInt(13)));
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
        return read("read failures of session " + sessionId, () -> {
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
        return read("read processes of session " + sessionId, () -> {
            List<ProcessSpan> rows = new ArrayList<>();
            try (PreparedStatement select = prepare(connection, sql.toString(), args); ResultSet r = select.executeQuery()) {
                while (r.next()) {
                    rows.add(new ProcessSpan(r.getString(1), r.getInt(2), r.getLong(3), r.getString(4), r.getString(5),
                            r.getString(6), Instant.ofEpochMilli(r.getLong(7)), Instant.ofEpochMilli(r.getLong(8)),
                            nullableLong(r, 9), nullableLong(r, 10)));
                }
            }
            return rows;
        });
    }

    @Override
    public synchronized void close() {
        try {
            if (!connection.isClosed()) {
                connection.close();
            }
        } catch (SQLException e) {
            throw failure("close", file, e);
        }
    }

    // ---------------------------------------------------------------- internals

    private List<SessionView> sessionsWhere(String where, Long id) throws SQLException {
        List<SessionView> sessions = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT id, started_at, ended_at, interval_ms, host,"
                + " nodes, end_reason, samples, failures FROM sessions " + where + " ORDER BY started_at DESC, id DESC")) {
            if (id != null) {
                select.setLong(1, id);
            }
            try (ResultSet r = select.executeQuery()) {
                while (r.next()) {
                    Long ended = nullableLong(r, 3);
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

    private interface Work<T> {
        T run() throws SQLException;
    }

    private <T> T write(String action, Work<T> work) {
        try (Statement statement = connection.createStatement()) {
            statement.execute("BEGIN IMMEDIATE");
            boolean committed = false;
            try {
                T result = work.run();
                statement.execute("COMMIT");
                committed = true;
                return result;
            } finally {
                if (!committed) {
                    rollback(statement);
                    // A rolled-back transaction may have written ids the caches now hold.
                    rows.forgetIds();
                }
            }
        } catch (SQLException e) {
            throw failure(action, file, e);
        }
    }

    private <T> T read(String action, Work<T> work) {
        try (Statement statement = connection.createStatement()) {
            statement.execute("BEGIN");
            try {
                return work.run();
            } finally {
                rollback(statement);
            }
        } catch (SQLException e) {
            throw failure(action, file, e);
        }
    }
}
