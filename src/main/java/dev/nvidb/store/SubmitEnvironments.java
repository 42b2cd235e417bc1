package dev.nvidb.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;

/**
 * The environment a job was submitted with ({@code jobs.submit_env}, schema v3), recorded for
 * jobs that may run on the local node, so that such a job runs with its submitter's environment
 * rather than that of whichever client's tick launches it. The whole environment is kept, in a
 * file only its owner can read ({@code queue.db} is mode 0600): secrets in it stay as private
 * as the submitter's own shell.
 */
public final class SubmitEnvironments {

    private static final String RECORD = "UPDATE jobs SET submit_env = ? WHERE id = ?";
    private static final String READ = "SELECT submit_env FROM jobs WHERE id = ?";

    private final Database database;

    public SubmitEnvironments(Database database) {
        this.database = database;
    }

    /** Records {@code environment} for job {@code id} (in the submit's transaction). */
    public void record(Connection connection, long id, Map<String, String> environment) throws SQLException {
        Columns.update(connection, RECORD, JsonText.write(environment), id);
    }

    /** The recorded environment of job {@code id}; empty when none was (an older job, or one for remote nodes only). */
    public Optional<Map<String, String>> find(Connection connection, long id) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(READ);
             ResultSet rows = Columns.bind(statement, id).executeQuery()) {
            if (!rows.next() || rows.getString(1) == null) {
                return Optional.empty();
            }
            return Optional.of(JsonText.readStringMap(rows.getString(1)));
        }
    }

    public Optional<Map<String, String>> find(long id) {
        return database.read("read the environment of job " + id, conn -> find(conn, id));
    }
}
