package dev.nvidb.sqlite;

import dev.nvidb.error.StoreException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

/**
 * An SQLite file and its connections: created owner-only, connected with the pragmas nvidb's
 * databases use ({@code busy_timeout}, {@code foreign_keys=ON}, {@code synchronous=NORMAL}; WAL is
 * the file's, set once by {@link Migrator}), and the bare or read-only connections of copies and
 * inspections. The only user of the driver's own classes ({@code org.sqlite}).
 */
public final class SqliteFile {

    private SqliteFile() {
    }

    /** What opening does once connected: bring the schema up to date, or check it. */
    @FunctionalInterface
    public interface Preparation {
        void prepare(Connection connection) throws SQLException;
    }

    /**
     * Creates {@code file} (0600) and its missing folders (0700) unless it exists; many processes
     * may do it at once. {@code pathOption} is the option that names the file (the GPU log's
     * {@code --db-path}): when given, a permission or file-system failure names the path it
     * concerns and the hint suggests the option; when null, any failure reads
     * {@code cannot create <file>: <message>}.
     */
    public static void createOwnerOnly(Path file, String pathOption) {
        Path parent = file.getParent();
        try {
            if (parent != null && !Files.isDirectory(parent)) {
                Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException alreadyThere) {
            // Another client created it first (or it existed): SQLite opens it as it is.
        } catch (AccessDeniedException e) {
            if (pathOption == null) {
                throw plainFailure(file, parent, e);
            }
            throw new StoreException("cannot create " + file + ": permission denied on " + e.getFile(),
                    "check that you may write to " + parent + ", or give " + pathOption, e);
        } catch (FileSystemException e) {
            if (pathOption == null) {
                throw plainFailure(file, parent, e);
            }
            throw new StoreException("cannot create " + file + ": " + (e.getReason() != null ? e.getReason()
                    : "no such directory") + " (" + e.getFile() + ")", "check that you may write to " + parent
                    + ", or give " + pathOption, e);
        } catch (IOException | UnsupportedOperationException e) {
            throw plainFailure(file, parent, e);
        }
    }

    private static StoreException plainFailure(Path file, Path parent, Exception e) {
        return new StoreException("cannot create " + file + ": " + e.getMessage(), "check that you may write to " + parent, e);
    }

    /**
     * Connects to {@code file} with the pragmas of nvidb's databases and runs {@code preparation};
     * a failure of either is {@code wording}'s sentence for {@code action}, and closes the connection.
     */
    public static Connection open(Path file, Duration busyTimeout, Wording wording, String action, Preparation preparation) {
        Connection connection;
        try {
            connection = connect(file, busyTimeout);
        } catch (SQLException e) {
            throw wording.failure(action, e);
        }
        try {
            preparation.prepare(connection);
            return connection;
        } catch (SQLException e) {
            closeQuietly(connection);
            throw wording.failure(action, e);
        } catch (RuntimeException e) {
            closeQuietly(connection);
            throw e;
        }
    }

    /** A connection to {@code file}: {@code busy_timeout}, {@code foreign_keys=ON}, {@code synchronous=NORMAL}. */
    public static Connection connect(Path file, Duration busyTimeout) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(millis(busyTimeout));
        config.enforceForeignKeys(true);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        return config.createConnection("jdbc:sqlite:" + file);
    }

    /** A connection with SQLite's defaults, but for a busy timeout when {@code busyTimeout} is not null: for copies and checks. */
    public static Connection connectBare(Path file, Duration busyTimeout) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        if (busyTimeout != null) {
            config.setBusyTimeout(millis(busyTimeout));
        }
        return config.createConnection("jdbc:sqlite:" + file);
    }

    /**
     * A connection that cannot write: {@code immutable=1} (SQLite trusts the main file alone and
     * takes no locks: only when no other client has it open), else {@code mode=ro}.
     */
    public static Connection connectReadOnly(Path file, boolean immutable, Duration busyTimeout) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(millis(busyTimeout));
        return config.createConnection("jdbc:sqlite:" + file.toAbsolutePath().toUri() + (immutable ? "?immutable=1" : "?mode=ro"));
    }

    /**
     * Copies the database of {@code from} into {@code target} in one step of SQLite's online
     * backup, retrying a locked source {@code busyRetries} times {@code pause} apart; returns
     * SQLite's result code ({@code 0} or {@code 101} when done).
     */
    public static int backup(Connection from, Path target, Duration pause, int busyRetries) throws SQLException {
        return ((SQLiteConnection) from).getDatabase().backup("main", target.toAbsolutePath().toString(), null,
                millis(pause), busyRetries, -1);
    }

    /** Closes {@code connection} while already failing with a better message. */
    public static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Already failing with a better message.
        }
    }

    private static int millis(Duration duration) {
        return (int) Math.min(Integer.MAX_VALUE, duration.toMillis());
    }
}
