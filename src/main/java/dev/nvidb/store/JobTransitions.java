package dev.nvidb.store;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.EventKind;
import dev.nvidb.model.FailureClass;
import dev.nvidb.model.JobState;
import dev.nvidb.model.JobStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every change of a job's state, each a compare-and-set on (id, state, attempt) that appends its
 * event in the same transaction and returns whether it applied. A late or duplicated report
 * finds the job no longer as it expected and changes nothing. Leaving {@code running} without
 * having seen the process end (cancel, timeout, requeue) records a pending reap as well.
 */
public final class JobTransitions {

    private static final String PLACE = """
            UPDATE jobs SET state = 'running', node = ?, gpu_ids = ?, gpu_uuids = ?, attempt = ?, launch_token = ?,
                            job_dir = ?, started_at = ?, pid = NULL, pgid = NULL, proc_start_time = NULL,
                            boot_id = NULL, exit_code = NULL, progress = NULL, unverified_since = NULL,
                            measured_mb = NULL
            WHERE id = ? AND state = 'pending' AND attempt = ? AND hold_reason IS NULL
            """;
    private static final String PROCESS = """
            UPDATE jobs SET pid = ?, pgid = ?, proc_start_time = ?, boot_id = ?
            WHERE id = ? AND state = 'running' AND attempt = ?
            """;
    private static final String FINISH = """
            UPDATE jobs SET state = ?, finished_at = ?, exit_code = ?, last_error = ?, hold_reason = NULL,
                            unverified_since = NULL, failure_class = ?
            WHERE id = ? AND state = ? AND attempt = ?
            """;
    /**
     * Back to pending; the note and the attempt count stay, the last attempt's traces go. The
     * failed-launch count grows by one for a failed launch and starts again otherwise.
     */
    private static final String REQUEUE = """
            UPDATE jobs SET state = 'pending', last_error = ?,
                            launch_failures = CASE WHEN ? THEN launch_failures + 1 ELSE 0 END,
                            node = NULL, gpu_ids = NULL, gpu_uuids = NULL,
                            launch_token = NULL, job_dir = NULL, started_at = NULL, finished_at = NULL, pid = NULL,
                            pgid = NULL, proc_start_time = NULL, boot_id = NULL, exit_code = NULL, progress = NULL,
                            result = NULL, unverified_since = NULL, measured_mb = NULL, failure_class = NULL
            WHERE id = ? AND state = ? AND attempt = ? AND (? = 0 OR attempt - oom_retries <= max_retries)
            """;
    /** A launch lost to another queue's claim: as {@link #REQUEUE} of a launch, its failures kept as they were. */
    private static final String LOST_LAUNCH = """
            UPDATE jobs SET state = 'pending', last_error = ?,
                            node = NULL, gpu_ids = NULL, gpu_uuids = NULL,
                            launch_token = NULL, job_dir = NULL, started_at = NULL, finished_at = NULL, pid = NULL,
                            pgid = NULL, proc_start_time = NULL, boot_id = NULL, exit_code = NULL, progress = NULL,
                            result = NULL, unverified_since = NULL, measured_mb = NULL, failure_class = NULL
            WHERE id = ? AND state = 'running' AND attempt = ? AND pid IS NULL
            """;
    /** An out-of-memory failure back to pending with more memory, while its OOM retries last. */
    private static final String OOM_RETRY = """
            UPDATE jobs SET state = 'pending', last_error = ?, vram_mb = ?, oom_retries = oom_retries + 1,
                            launch_failures = 0, node = NULL, gpu_ids = NULL, gpu_uuids = NULL,
                            launch_token = NULL, job_dir = NULL, started_at = NULL, finished_at = NULL, pid = NULL,
                            pgid = NULL, proc_start_time = NULL, boot_id = NULL, exit_code = NULL, progress = NULL,
                            result = NULL, unverified_since = NULL, measured_mb = NULL, failure_class = NULL
            WHERE id = ? AND state = 'running' AND attempt = ? AND oom_retries < retry_oom
            """;
    private static final String UNVERIFIED = """
            UPDATE jobs SET unverified_since = ? WHERE node = ? AND state = 'running' AND unverified_since IS NULL
            RETURNING id
            """;
    private static final String VERIFIED = """
            UPDATE jobs SET unverified_since = NULL WHERE node = ? AND state = 'running' AND unverified_since IS NOT NULL
            RETURNING id
            """;

    private static final String REQUEST_CANCEL = """
            INSERT INTO cancel_requests (job_id, attempt, reason, requested_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (job_id) DO UPDATE SET attempt = excluded.attempt
            """;
    private static final String CANCELS_OWED = "SELECT job_id FROM cancel_requests ORDER BY job_id";
    private static final String CANCEL_DONE = "DELETE FROM cancel_requests WHERE job_id = ?";

    private final Database database;
    private final JobStore jobs;
    private final EventStore events;
    private final ReapStore reaps;

    public JobTransitions(Database database) {
        this.database = database;
        this.jobs = new JobStore(database);
        this.events = new EventStore(database);
        this.reaps = new ReapStore(database);
    }

    /**
     * pending → running with {@code assignment} (whose attempt must be the job's next), committed
     * before the launch; records {@code placed}. False when the job is no longer that pending job.
     */
    public boolean place(Connection connection, long jobId, Assignment assignment, String jobDir, Instant now)
            throws SQLException {
        int changed = Columns.update(connection, PLACE, assignment.node(), JsonText.write(assignment.gpuIds()),
                JsonText.write(assignment.gpuUuids()), assignment.attempt(), assignment.launchToken(), jobDir, now,
                jobId, assignment.attempt() - 1);
        if (changed == 0) {
            return false;
        }
        events.append(connection, now, jobId, assignment.node(), EventKind.PLACED, Map.of(
                "gpu_ids", assignment.gpuIds(), "attempt", assignment.attempt(),
                "launch_token", assignment.launchToken()));
        return true;
    }

    public boolean place(long jobId, Assignment assignment, String jobDir, Instant now) {
        return database.write("place job " + jobId, conn -> place(conn, jobId, assignment, jobDir, now));
    }

    /** Records the process the launch of {@code attempt} started; records {@code started}. */
    public boolean recordProcess(Connection connection, long jobId, int attempt, ProcessIdentity process, Instant now)
            throws SQLException {
        int changed = Columns.update(connection, PROCESS, process.pid(), process.pgid(), process.startTime(),
                process.bootId(), jobId, attempt);
        if (changed == 0) {
            return false;
        }
        events.append(connection, now, jobId, null, EventKind.STARTED,
                Map.of("pid", process.pid(), "attempt", attempt));
        return true;
    }

    public boolean recordProcess(long jobId, int attempt, ProcessIdentity process, Instant now) {
        return database.write("save job " + jobId, conn -> recordProcess(conn, jobId, attempt, process, now));
    }

    /**
     * Moves the job from {@code expected} to the final state {@code to}, records an event named
     * after {@code to}, and, when a running job is cancelled or timed out (its process may still
     * run), a pending reap for its process. Only a pending or running job can finish: a caller
     * that saw the job already ended is late, and nothing changes.
     */
    public boolean finish(Connection connection, long jobId, Expected expected, JobState to, Integer exitCode,
                          String lastError, Instant now) throws SQLException {
        return finish(connection, jobId, expected, to, exitCode, lastError, null, now);
    }

    /**
     * {@link #finish(Connection, long, Expected, JobState, Integer, String, Instant)} recording why it
     * failed ({@code failureClass}, which a lost or timed-out job gets from its state when null) in
     * the same compare-and-set.
     */
    public boolean finish(Connection connection, long jobId, Expected expected, JobState to, Integer exitCode,
                          String lastError, FailureClass failureClass, Instant now) throws SQLException {
        FailureClass recorded = failureClass != null ? failureClass
                : to == JobState.LOST ? FailureClass.LOST : to == JobState.TIMEOUT ? FailureClass.TIMEOUT : null;
        if (!to.finished()) {
            throw new IllegalArgumentException("finish needs a final state, not " + to.key());
        }
        JobStatus.Outcome.of(to).checkExitCode(exitCode);
        JobStatus.Outcome.of(to).checkFailureClass(recorded);
        if (expected.state().finished()) {
            return false;
        }
        Optional<StoredJob> before = killOwed(expected, to) ? jobs.findJob(connection, jobId) : Optional.empty();
        int changed = Columns.update(connection, FINISH, to.key(), now, exitCode, lastError,
                recorded == null ? null : recorded.key(), jobId, expected.state().key(), expected.attempt());
        if (changed == 0) {
            return false;
        }
        if (before.isPresent()) {
            owe(connection, before.get(), to.key(), now);
        }
        Map<String, Object> detail = new HashMap<>();
        detail.put("from", expected.state().key());
        detail.put("exit_code", exitCode);
        detail.put("error", lastError);
        if (recorded != null) {
            detail.put("failure_class", recorded.key());
        }
        events.append(connection, now, jobId, null, EventKind.endedAs(to), detail);
        return true;
    }

    public boolean finish(long jobId, Expected expected, JobState to, Integer exitCode, String lastError, Instant now) {
        return database.write("save job " + jobId,
                conn -> finish(conn, jobId, expected, to, exitCode, lastError, now));
    }

    /** Cancels a pending or running job ({@link #finish} to {@code cancelled}, with its reap if it ran). */
    public boolean cancel(Connection connection, long jobId, Expected expected, String reason, Instant now)
            throws SQLException {
        return finish(connection, jobId, expected, JobState.CANCELLED, null, reason, now);
    }

    public boolean cancel(long jobId, Expected expected, String reason, Instant now) {
        return database.write("cancel job " + jobId, conn -> cancel(conn, jobId, expected, reason, now));
    }

    /**
     * Records that a person cancelled running {@code jobId} while its node could not be asked
     * whether the job already ended: the job stays running (its dependents keep waiting) until
     * a probe reaches the node, which settles it by its exit file or cancels it
     * ({@link #cancelsOwed}, {@link #cancelOwedDone}). False when the job is no longer that running attempt.
     */
    public boolean requestCancel(Connection connection, long jobId, Expected expected, String reason, Instant now)
            throws SQLException {
        Optional<StoredJob> job = jobs.findJob(connection, jobId);
        if (expected.state() != JobState.RUNNING || job.isEmpty() || job.get().job().state() != JobState.RUNNING
                || job.get().job().attempt() != expected.attempt()) {
            return false;
        }
        Columns.update(connection, REQUEST_CANCEL, jobId, expected.attempt(), reason, now);
        return true;
    }

    public boolean requestCancel(long jobId, Expected expected, String reason, Instant now) {
        return database.write("cancel job " + jobId, conn -> requestCancel(conn, jobId, expected, reason, now));
    }

    /** The jobs owed a cancel (see {@link #requestCancel}), by id. */
    public List<Long> cancelsOwed(Connection connection) throws SQLException {
        return ids(connection, CANCELS_OWED);
    }

    public List<Long> cancelsOwed() {
        return database.read("read cancels owed", this::cancelsOwed);
    }

    /** The owed cancel of {@code jobId} was carried out, or the job ended first. */
    public boolean cancelOwedDone(Connection connection, long jobId) throws SQLException {
        return Columns.update(connection, CANCEL_DONE, jobId) > 0;
    }

    /**
     * A person's requeue: any non-pending job back to pending, keeping its note and attempt count,
     * clearing progress and the last attempt's traces; a running job's process gets a reap.
     */
    public boolean requeue(Connection connection, long jobId, Expected expected, String reason, Instant now)
            throws SQLException {
        if (expected.state() == JobState.PENDING) {
            return false;
        }
        if (!backToPending(connection, jobId, expected, reason, false, false, now)) {
            return false;
        }
        cancelOwedDone(connection, jobId); // the later request wins over a cancel still owed
        return true;
    }

    public boolean requeue(long jobId, Expected expected, String reason, Instant now) {
        return database.write("requeue job " + jobId, conn -> requeue(conn, jobId, expected, reason, now));
    }

    /**
     * A running job whose process vanished goes back to pending if it has retries left
     * ({@code attempt - oom_retries <= max_retries}: attempts that were OOM retries do not use up
     * {@code --retries}); false otherwise, and the caller marks it lost.
     */
    public boolean retry(Connection connection, long jobId, int attempt, String reason, Instant now) throws SQLException {
        return backToPending(connection, jobId, new Expected(JobState.RUNNING, attempt), reason, true, false, now);
    }

    public boolean retry(long jobId, int attempt, String reason, Instant now) {
        return database.write("retry job " + jobId, conn -> retry(conn, jobId, attempt, reason, now));
    }

    /**
     * A running job that failed out of memory goes back to pending with {@code vramMb} per GPU, if
     * it has OOM retries left ({@code oom_retries < retry_oom}, one more used); records
     * {@code retried} with the old and new reservation. False otherwise: the caller records the
     * failure.
     */
    public boolean retryOom(Connection connection, long jobId, int attempt, long oldVramMb, long vramMb,
                            String reason, Instant now) throws SQLException {
        int changed = Columns.update(connection, OOM_RETRY, reason, vramMb, jobId, attempt);
        if (changed == 0) {
            return false;
        }
        Map<String, Object> detail = fromRunning(attempt, reason);
        detail.put("failure_class", FailureClass.OOM.key());
        detail.put("vram_mb_before", oldVramMb);
        detail.put("vram_mb", vramMb);
        events.append(connection, now, jobId, null, EventKind.RETRIED, detail);
        return true;
    }

    /**
     * The launch of running {@code attempt} failed for sure (nothing started): back to pending as
     * by {@link #requeue}, with one more failed launch counted ({@code launch_failures}).
     */
    public boolean launchFailed(Connection connection, long jobId, int attempt, String reason, Instant now)
            throws SQLException {
        return backToPending(connection, jobId, new Expected(JobState.RUNNING, attempt), reason, false, true, now);
    }

    /**
     * A launch the node refused because another queue claimed the GPUs first: back to pending with
     * {@code reason}, its launch failures unchanged and no kill owed (nothing started).
     */
    public boolean launchLost(Connection connection, long jobId, int attempt, String reason, Instant now)
            throws SQLException {
        int changed = Columns.update(connection, LOST_LAUNCH, reason, jobId, attempt);
        if (changed == 0) {
            return false;
        }
        events.append(connection, now, jobId, null, EventKind.REQUEUED, fromRunning(attempt, reason));
        return true;
    }

    /** An event's detail for a running attempt sent back: where from, which attempt, why. */
    private static Map<String, Object> fromRunning(int attempt, String reason) {
        Map<String, Object> detail = new HashMap<>();
        detail.put("from", JobState.RUNNING.key());
        detail.put("attempt", attempt);
        detail.put("reason", reason);
        return detail;
    }

    private boolean backToPending(Connection connection, long jobId, Expected expected, String reason, boolean retry,
                                  boolean launchFailed, Instant now) throws SQLException {
        boolean owe = !retry && expected.state() == JobState.RUNNING;
        Optional<StoredJob> before = owe ? jobs.findJob(connection, jobId) : Optional.empty();
        int changed = Columns.update(connection, REQUEUE, reason, launchFailed, jobId, expected.state().key(),
                expected.attempt(), retry);
        if (changed == 0) {
            return false;
        }
        if (before.isPresent()) {
            owe(connection, before.get(), "requeued", now);
        }
        Map<String, Object> detail = new HashMap<>();
        detail.put("from", expected.state().key());
        detail.put("attempt", expected.attempt());
        detail.put("reason", reason);
        events.append(connection, now, jobId, null, retry ? EventKind.RETRIED : EventKind.REQUEUED, detail);
        return true;
    }

    /** Running jobs on {@code node} become unverified since {@code now} (once); records {@code unverified}. */
    public List<Long> markUnverified(Connection connection, String node, Instant now) throws SQLException {
        List<Long> ids = ids(connection, UNVERIFIED, now, node);
        for (long id : ids) {
            events.append(connection, now, id, node, EventKind.UNVERIFIED, null);
        }
        return ids;
    }

    public List<Long> markUnverified(String node, Instant now) {
        return database.write("save jobs on " + node, conn -> markUnverified(conn, node, now));
    }

    /** The node answered again: its running jobs are verified; records {@code verified}. */
    public List<Long> markVerified(Connection connection, String node, Instant now) throws SQLException {
        List<Long> ids = ids(connection, VERIFIED, node);
        for (long id : ids) {
            events.append(connection, now, id, node, EventKind.VERIFIED, null);
        }
        return ids;
    }

    public List<Long> markVerified(String node, Instant now) {
        return database.write("save jobs on " + node, conn -> markVerified(conn, node, now));
    }

    private static List<Long> ids(Connection connection, String sql, Object... values) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql);
             ResultSet rows = Columns.bind(statement, values).executeQuery()) {
            List<Long> ids = new ArrayList<>();
            while (rows.next()) {
                ids.add(rows.getLong(1));
            }
            return ids;
        }
    }

    private static boolean killOwed(Expected expected, JobState to) {
        return expected.state() == JobState.RUNNING && (to == JobState.CANCELLED || to == JobState.TIMEOUT);
    }

    private void owe(Connection connection, StoredJob job, String reason, Instant now) throws SQLException {
        Assignment assignment = job.job().assignment();
        reaps.add(connection, new ReapTarget(assignment.node(), job.process(), job.id(), assignment.attempt(),
                assignment.launchToken(), job.jobDir()), reason, now);
    }
}
