package dev.nvidb.store;

import dev.nvidb.model.EventKind;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;

/**
 * What people and jobs write on a job besides its state: priority, the user's note, the job's
 * progress line, its result, a person's hold, and the memory it was measured using. Writes about
 * one attempt (progress, measured use) are compare-and-set on the attempt, so a late probe
 * cannot touch a newer one.
 */
public final class JobAnnotations {

    private static final String PRIORITY = """
            UPDATE jobs SET priority = ? WHERE id = ? AND state IN ('pending', 'running')
            """;
    private static final String NOTE = "UPDATE jobs SET note = ? WHERE id = ?";
    private static final String APPEND_NOTE = """
            UPDATE jobs SET note = CASE WHEN note IS NULL OR note = '' THEN ? ELSE note || char(10) || ? END
            WHERE id = ?
            """;
    private static final String PROGRESS = """
            UPDATE jobs SET progress = ? WHERE id = ? AND state = 'running' AND attempt = ?
            """;
    private static final String RESULT = "UPDATE jobs SET result = ? WHERE id = ?";
    private static final String ATTEMPT_RESULT = """
            UPDATE jobs SET result = ? WHERE id = ? AND state = 'running' AND attempt = ?
            """;
    private static final String HOLD = "UPDATE jobs SET hold_reason = ? WHERE id = ? AND state = 'pending'";
    /** A person released it: its failed launches count from zero again (as after a requeue). */
    private static final String RELEASE = """
            UPDATE jobs SET hold_reason = NULL, launch_failures = 0
            WHERE id = ? AND state = 'pending' AND hold_reason IS NOT NULL
            """;
    private static final String MEASURED = """
            UPDATE jobs SET measured_mb = MAX(COALESCE(measured_mb, 0), ?)
            WHERE id = ? AND state = 'running' AND attempt = ?
            """;

    private final Database database;
    private final EventStore events;

    public JobAnnotations(Database database) {
        this.database = database;
        this.events = new EventStore(database);
    }

    /** Sets the priority of a pending or running job; records {@code priority}. */
    public boolean setPriority(Connection connection, long jobId, int priority, Instant now) throws SQLException {
        if (Columns.update(connection, PRIORITY, priority, jobId) == 0) {
            return false;
        }
        events.append(connection, now, jobId, null, EventKind.PRIORITY, Map.of("priority", priority));
        return true;
    }

    public boolean setPriority(long jobId, int priority, Instant now) {
        return database.write("save job " + jobId, conn -> setPriority(conn, jobId, priority, now));
    }

    /** Replaces the note (null clears it), in any state. */
    public boolean setNote(Connection connection, long jobId, String note) throws SQLException {
        return Columns.update(connection, NOTE, note, jobId) == 1;
    }

    public boolean setNote(long jobId, String note) {
        return database.write("save the note of job " + jobId, conn -> setNote(conn, jobId, note));
    }

    /** Adds a line to the note, atomically (two clients appending at once both keep their line). */
    public boolean appendNote(Connection connection, long jobId, String line) throws SQLException {
        return Columns.update(connection, APPEND_NOTE, line, line, jobId) == 1;
    }

    public boolean appendNote(long jobId, String line) {
        return database.write("save the note of job " + jobId, conn -> appendNote(conn, jobId, line));
    }

    /** The job's own last status line, for {@code attempt} only, while that attempt runs. */
    public boolean setProgress(Connection connection, long jobId, int attempt, String progress) throws SQLException {
        return Columns.update(connection, PROGRESS, progress, jobId, attempt) == 1;
    }

    public boolean setProgress(long jobId, int attempt, String progress) {
        return database.write("save progress of job " + jobId, conn -> setProgress(conn, jobId, attempt, progress));
    }

    /** The result document (JSON text, validated by the caller; the schema refuses malformed JSON). */
    public boolean setResult(Connection connection, long jobId, String resultJson) throws SQLException {
        return Columns.update(connection, RESULT, resultJson, jobId) == 1;
    }

    /**
     * The result document a running {@code attempt} left on its node, written only while that
     * attempt is still the running one (the settle writes it just before the job's end).
     */
    public boolean setAttemptResult(Connection connection, long jobId, int attempt, String resultJson)
            throws SQLException {
        return Columns.update(connection, ATTEMPT_RESULT, resultJson, jobId, attempt) == 1;
    }

    public boolean setResult(long jobId, String resultJson) {
        return database.write("save the result of job " + jobId, conn -> setResult(conn, jobId, resultJson));
    }

    /** Holds a pending job with a reason (the scheduler skips it); records {@code held}. */
    public boolean hold(Connection connection, long jobId, String reason, Instant now) throws SQLException {
        if (Columns.update(connection, HOLD, reason, jobId) == 0) {
            return false;
        }
        events.append(connection, now, jobId, null, EventKind.HELD, Map.of("reason", reason));
        return true;
    }

    public boolean hold(long jobId, String reason, Instant now) {
        return database.write("hold job " + jobId, conn -> hold(conn, jobId, reason, now));
    }

    /** Releases a held job and resets its failed-launch count; records {@code released}. */
    public boolean release(Connection connection, long jobId, Instant now) throws SQLException {
        if (Columns.update(connection, RELEASE, jobId) == 0) {
            return false;
        }
        events.append(connection, now, jobId, null, EventKind.RELEASED, null);
        return true;
    }

    public boolean release(long jobId, Instant now) {
        return database.write("release job " + jobId, conn -> release(conn, jobId, now));
    }

    /** Raises the measured per-GPU use of a running attempt to {@code mb} if larger (it is charged the max). */
    public boolean recordMeasured(Connection connection, long jobId, int attempt, long mb) throws SQLException {
        return Columns.update(connection, MEASURED, mb, jobId, attempt) == 1;
    }

    public boolean recordMeasured(long jobId, int attempt, long mb) {
        return database.write("save job " + jobId, conn -> recordMeasured(conn, jobId, attempt, mb));
    }
}
