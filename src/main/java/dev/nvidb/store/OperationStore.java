package dev.nvidb.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The {@code op_ids} table (schema v5): what each {@code --op-id} asked (a digest of the
 * request), the jobs a submit stored under it (written in the insert's own transaction, so a
 * retry never stores them twice) and, once the command ended, its stdout and exit code.
 */
public final class OperationStore {

    /** One recorded operation; {@code finishedAt} null while its first run has not answered. */
    public record Operation(String opId, String digest, String command, Instant createdAt, List<Long> jobIds,
                            Instant finishedAt, Integer exitCode, String stdout) {

        public boolean answered() {
            return finishedAt != null;
        }
    }

    private static final String FIND = """
            SELECT op_id, digest, command, created_at, job_ids, finished_at, exit_code, stdout FROM op_ids WHERE op_id = ?
            """;
    private static final String CLAIM = """
            INSERT INTO op_ids (op_id, digest, command, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (op_id) DO NOTHING
            """;
    private static final String JOBS = "UPDATE op_ids SET job_ids = ? WHERE op_id = ? AND job_ids IS NULL";
    private static final String FINISH = """
            UPDATE op_ids SET finished_at = ?, exit_code = ?, stdout = ? WHERE op_id = ? AND finished_at IS NULL
            """;
    private static final String FORGET = """
            DELETE FROM op_ids WHERE op_id = ? AND finished_at IS NULL AND job_ids IS NULL
            """;
    private static final String EXPIRE = "DELETE FROM op_ids WHERE created_at < ?";

    private final Database database;

    public OperationStore(Database database) {
        this.database = database;
    }

    public Optional<Operation> find(Connection connection, String opId) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(FIND);
             ResultSet rows = Columns.bind(statement, opId).executeQuery()) {
            if (!rows.next()) {
                return Optional.empty();
            }
            String jobs = rows.getString("job_ids");
            return Optional.of(new Operation(rows.getString("op_id"), rows.getString("digest"),
                    rows.getString("command"), Columns.instant(rows, "created_at"),
                    jobs == null ? List.of() : JsonText.readLongs(jobs), Columns.instant(rows, "finished_at"),
                    Columns.intOrNull(rows, "exit_code"), rows.getString("stdout")));
        }
    }

    /** Records a new operation, unless one with this id exists. */
    public void claim(Connection connection, String opId, String digest, String command, Instant now)
            throws SQLException {
        Columns.update(connection, CLAIM, opId, digest, command, now);
    }

    /** The jobs the operation's submit stored (once: a second submit under the id reuses them). */
    public void recordJobs(Connection connection, String opId, List<Long> ids) throws SQLException {
        Columns.update(connection, JOBS, JsonText.write(ids), opId);
    }

    /** The operation's answer; the first one recorded stays. */
    public void finish(String opId, int exitCode, String stdout, Instant now) {
        database.write("record operation " + opId, conn -> Columns.update(conn, FINISH, now, exitCode, stdout, opId));
    }

    /** Forgets an operation that changed nothing (a usage error), so the id can be used again. */
    public void forget(String opId) {
        database.write("forget operation " + opId, conn -> Columns.update(conn, FORGET, opId));
    }

    /** Deletes operations recorded before {@code cutoff}; returns how many. */
    public int expire(Connection connection, Instant cutoff) throws SQLException {
        return Columns.update(connection, EXPIRE, cutoff);
    }
}
