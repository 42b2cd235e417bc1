package dev.nvidb.store;

import dev.nvidb.model.EventKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code pending_reaps} table: kills owed to nodes that were unreachable or not yet probed.
 * No foreign key ties a reap to its job, so requeue and purge never drop one.
 */
public final class ReapStore {

    /** One reap per attempt: recording the same launch token twice keeps the first. */
    private static final String ADD = """
            INSERT INTO pending_reaps (node, pid, pgid, proc_start_time, boot_id, job_id, job_attempt, launch_token,
                                       job_dir, reason, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id
            """;
    private static final String LIST = """
            SELECT * FROM pending_reaps WHERE (? IS NULL OR node = ?) ORDER BY id
            """;
    private static final String TRIED = """
            UPDATE pending_reaps SET attempts = attempts + 1, signalled_at = COALESCE(signalled_at, ?), last_error = ?
            WHERE id = ?
            """;
    private static final String IDENTIFY = """
            UPDATE pending_reaps SET pid = ?, pgid = ?, proc_start_time = ?, boot_id = ?
            WHERE node = ? AND launch_token = ? AND pid IS NULL
            """;
    private static final String DONE = "DELETE FROM pending_reaps WHERE id = ? RETURNING node, job_id";

    private final Database database;
    private final EventStore events;

    public ReapStore(Database database) {
        this.database = database;
        this.events = new EventStore(database);
    }

    /** Records a kill owed to {@code target.node()}; empty when this attempt already has one. */
    public Optional<Long> add(Connection connection, ReapTarget target, String reason, Instant now) throws SQLException {
        ProcessIdentity process = target.process();
        Long id = Columns.queryLong(connection, ADD, target.node(),
                process == null ? null : process.pid(), process == null ? null : process.pgid(),
                process == null ? null : process.startTime(), process == null ? null : process.bootId(),
                target.jobId(), target.attempt(), target.launchToken(), target.jobDir(), reason, now);
        return Optional.ofNullable(id);
    }

    public Optional<Long> add(ReapTarget target, String reason, Instant now) {
        return database.write("record a kill on " + target.node(), conn -> add(conn, target, reason, now));
    }

    /**
     * Names the process of a kill owed by launch token only (the job was cancelled before its
     * launch reported the process); true when a reap was waiting for it.
     */
    public boolean identify(Connection connection, String node, String launchToken, ProcessIdentity process)
            throws SQLException {
        return Columns.update(connection, IDENTIFY, process.pid(), process.pgid(), process.startTime(),
                process.bootId(), node, launchToken) > 0;
    }

    public boolean identify(String node, String launchToken, ProcessIdentity process) {
        return database.write("record the process of a kill on " + node,
                conn -> identify(conn, node, launchToken, process));
    }

    /** The kills owed to {@code node} (every node when null), oldest first. */
    public List<PendingReap> list(Connection connection, String node) throws SQLException {
        List<PendingReap> reaps = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(LIST);
             ResultSet rows = Columns.bind(statement, node, node).executeQuery()) {
            while (rows.next()) {
                reaps.add(fromRow(rows));
            }
        }
        return reaps;
    }

    public List<PendingReap> list(String node) {
        return database.read("read pending kills", conn -> list(conn, node));
    }

    /** Notes a kill attempt: the first one's time is when TERM went out; {@code error} is null on success. */
    public boolean recordAttempt(Connection connection, long id, String error, Instant now) throws SQLException {
        return Columns.update(connection, TRIED, now, error, id) == 1;
    }

    public boolean recordAttempt(long id, String error, Instant now) {
        return database.write("record kill attempt " + id, conn -> recordAttempt(conn, id, error, now));
    }

    /** Deletes the reap once the agent verified its process gone, and records {@code reaped}. */
    public boolean complete(Connection connection, long id, Instant now) throws SQLException {
        Long jobId;
        String node;
        try (PreparedStatement statement = connection.prepareStatement(DONE);
             ResultSet rows = Columns.bind(statement, id).executeQuery()) {
            if (!rows.next()) {
                return false;
            }
            jobId = Columns.longOrNull(rows, "job_id");
            node = rows.getString("node");
        }
        events.append(connection, now, jobId, node, EventKind.REAPED, Map.of("reap_id", id));
        return true;
    }

    public boolean complete(long id, Instant now) {
        return database.write("complete kill " + id, conn -> complete(conn, id, now));
    }

    private static PendingReap fromRow(ResultSet rows) throws SQLException {
        Long pid = Columns.longOrNull(rows, "pid");
        ProcessIdentity process = pid == null ? null : new ProcessIdentity(pid, rows.getLong("pgid"),
                Columns.longOrNull(rows, "proc_start_time"), rows.getString("boot_id"));
        Long attempt = Columns.longOrNull(rows, "job_attempt");
        ReapTarget target = new ReapTarget(rows.getString("node"), process, Columns.longOrNull(rows, "job_id"),
                attempt == null ? null : attempt.intValue(), rows.getString("launch_token"), rows.getString("job_dir"));
        return new PendingReap(rows.getLong("id"), target, rows.getString("reason"),
                Columns.instant(rows, "created_at"), rows.getInt("attempts"), Columns.instant(rows, "signalled_at"),
                rows.getString("last_error"));
    }
}
