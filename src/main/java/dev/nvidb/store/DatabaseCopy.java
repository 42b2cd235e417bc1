package dev.nvidb.store;

import dev.nvidb.error.StoreException;
import dev.nvidb.sqlite.SqliteFile;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A consistent copy of the queue database made with SQLite's online backup API: one step over
 * its own read connection, so the copy is the last committed state (the WAL's included) while
 * other clients keep writing. In the copy the tick lease is cleared (a restored queue must not
 * wait for a holder that was alive when the copy was made) and {@code PRAGMA quick_check} must
 * answer {@code ok}. Publishing the copy is the caller's (it only ever writes {@code target}).
 */
public final class DatabaseCopy {

    /** How often a backup step that finds the source locked is retried, 100 ms apart. */
    private static final int BUSY_RETRIES = 100;
    private static final int SQLITE_OK = 0;
    private static final int SQLITE_DONE = 101;

    private DatabaseCopy() {
    }

    /**
     * Copies {@code source} into {@code target} (an empty file the caller created with the
     * permissions it wants, or none), clears the lease in the copy and checks it.
     *
     * @throws StoreException when the copy fails or the check does not answer ok
     */
    public static void copy(Path source, Path target, Duration busyTimeout) {
        try (Connection from = SqliteFile.connectBare(source.toAbsolutePath(), busyTimeout)) {
            int rc = SqliteFile.backup(from, target, Duration.ofMillis(100), BUSY_RETRIES);
            if (rc != SQLITE_OK && rc != SQLITE_DONE) {
                throw new StoreException("cannot back up " + source + ": SQLite answered code " + rc,
                        "another nvidb process held queue.db too long, or the disk is full; try again");
            }
        } catch (SQLException e) {
            throw Database.WORDING.failure("back up " + source, e);
        }
        try (Connection copy = SqliteFile.connectBare(target.toAbsolutePath(), busyTimeout);
             Statement statement = copy.createStatement()) {
            statement.executeUpdate("UPDATE lease SET holder = NULL, acquired_at = NULL, expires_at = 0 WHERE id = 1");
            List<String> problems = quickCheck(statement);
            if (!problems.equals(List.of("ok"))) {
                throw new StoreException("the backup of " + source + " failed its check: "
                        + String.join("; ", problems.subList(0, Math.min(3, problems.size()))),
                        "queue.db may be damaged: run 'sqlite3 " + source + " \"PRAGMA integrity_check\"'");
            }
        } catch (SQLException e) {
            throw Database.WORDING.failure("check the backup " + target, e);
        }
    }

    /** What {@code PRAGMA quick_check} answers for {@code file}: exactly {@code [ok]} when it is sound. */
    public static List<String> quickCheck(Path file) {
        try (Connection connection = SqliteFile.connectBare(file.toAbsolutePath(), null);
             Statement statement = connection.createStatement()) {
            return quickCheck(statement);
        } catch (SQLException e) {
            throw Database.WORDING.failure("check " + file, e);
        }
    }

    private static List<String> quickCheck(Statement statement) throws SQLException {
        List<String> answers = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery("PRAGMA quick_check")) {
            while (rows.next()) {
                answers.add(rows.getString(1));
            }
        }
        return answers;
    }
}
