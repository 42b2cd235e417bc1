package dev.nvidb.store;

import dev.nvidb.error.StoreException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.SQLiteConfig;

/**
 * The queue database ({@code queue.db}): one SQLite connection in WAL mode with a busy timeout
 * and foreign keys, migrated on open. All work runs in transactions: {@link #write} begins with
 * {@code BEGIN IMMEDIATE} so writers queue on the busy timeout instead of failing, {@link #read}
 * sees one snapshot. A transaction started inside another on the same thread joins it, so stores
 * compose. The connection is shared by the threads of one process, one transaction at a time.
 */
public final class Database implements AutoCloseable {

    /** How long a writer waits for another process's transaction before giving up. */
    public static final Duration DEFAULT_BUSY_TIMEOUT = Duration.ofSeconds(10);

    private final Path file;
    private final Connection connection;
    private final ReentrantLock lock = new ReentrantLock();
    private int depth;
    private boolean writing;

    private Database(Path file, Connection connection) {
        this.file = file;
        this.connection = connection;
    }

    /** Opens (creating and migrating if needed) the database at {@code file} with the default busy timeout. */
    public static Database open(Path file) {
        return open(file, DEFAULT_BUSY_TIMEOUT);
    }

    /**
     * Opens the database at {@code file}: creates its folder (0700) and the file (0600) when
     * missing, applies the pragmas and brings the schema up to date. Safe to call from many
     * processes at once on the same new file.
     */
    public static Database open(Path file, Duration busyTimeout) {
        Path absolute = file.toAbsolutePath();
        createFile(absolute);
        Connection connection = connect(absolute, busyTimeout);
        try {
            Migrations.migrate(connection, absolute, busyTimeout);
            return new Database(absolute, connection);
        } catch (SQLException e) {
            closeQuietly(connection);
            throw SqlErrors.translate("open " + absolute, e);
        } catch (RuntimeException e) {
            closeQuietly(connection);
            throw e;
        }
    }

    /** The database file. */
    public Path file() {
        return file;
    }

    /**
     * Runs {@code work} in a write transaction ({@code BEGIN IMMEDIATE}) and commits it; any
     * exception rolls it back. {@code action} completes the error sentence "cannot &lt;action&gt;: …".
     */
    public <T> T write(String action, SqlWork<T> work) {
        return transaction(action, true, work);
    }

    /**
     * Runs {@code work} in a write transaction and rolls it back whatever happens: what a change
     * would do, measured by doing it ({@code --dry-run}). Not inside another transaction.
     */
    public <T> T rehearse(String action, SqlWork<T> work) {
        lock.lock();
        try {
            if (depth > 0) {
                throw new IllegalStateException("cannot rehearse " + action + " inside a transaction");
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute("BEGIN IMMEDIATE");
                depth = 1;
                writing = true;
                try {
                    return work.run(connection);
                } finally {
                    depth = 0;
                    writing = false;
                    rollback(statement);
                }
            } catch (SQLException e) {
                throw SqlErrors.translate(action, e);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code work} in a read transaction: every query inside sees the same snapshot. */
    public <T> T read(String action, SqlWork<T> work) {
        return transaction(action, false, work);
    }

    private <T> T transaction(String action, boolean write, SqlWork<T> work) {
        lock.lock();
        try {
            if (depth > 0) {
                return join(action, write, work);
            }
            return outermost(action, write, work);
        } finally {
            lock.unlock();
        }
    }

    private <T> T join(String action, boolean write, SqlWork<T> work) {
        if (write && !writing) {
            throw new IllegalStateException("cannot " + action + " inside a read transaction");
        }
        depth++;
        try {
            return work.run(connection);
        } catch (SQLException e) {
            throw SqlErrors.translate(action, e);
        } finally {
            depth--;
        }
    }

    private <T> T outermost(String action, boolean write, SqlWork<T> work) {
        try (Statement statement = connection.createStatement()) {
            statement.execute(write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
            depth = 1;
            writing = write;
            boolean committed = false;
            try {
                T result = work.run(connection);
                statement.execute("COMMIT");
                committed = true;
                return result;
            } finally {
                depth = 0;
                writing = false;
                if (!committed) {
                    rollback(statement);
                }
            }
        } catch (SQLException e) {
            throw SqlErrors.translate(action, e);
        }
    }

    private static void rollback(Statement statement) {
        try {
            statement.execute("ROLLBACK");
        } catch (SQLException alreadyEnded) {
            // SQLite ends the transaction itself after some failures (a failed COMMIT, a full disk).
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            connection.close();
        } catch (SQLException e) {
            throw SqlErrors.translate("close " + file, e);
        } finally {
            lock.unlock();
        }
    }

    private static void createFile(Path file) {
        Path parent = file.getParent();
        try {
            if (parent != null && !Files.isDirectory(parent)) {
                Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException alreadyThere) {
            // Another client created it first (or it existed): SQLite opens it as it is.
        } catch (IOException | UnsupportedOperationException e) {
            throw new StoreException("cannot create " + file + ": " + e.getMessage(),
                    "check that you may write to " + parent, e);
        }
    }

    private static Connection connect(Path file, Duration busyTimeout) {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout((int) Math.min(Integer.MAX_VALUE, busyTimeout.toMillis()));
        config.enforceForeignKeys(true);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        try {
            return config.createConnection("jdbc:sqlite:" + file);
        } catch (SQLException e) {
            throw SqlErrors.translate("open " + file, e);
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Already failing with a better message.
        }
    }
}
