package dev.nvidb.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The transactions of one SQLite connection, shared by the threads of one process one
 * transaction at a time. {@link #write} begins with {@code BEGIN IMMEDIATE}, so writers queue on
 * the busy timeout instead of failing; {@link #read} ({@code BEGIN DEFERRED}) sees one snapshot.
 * A transaction started inside another on the same thread joins it, so stores compose. Any
 * exception rolls the transaction back; an {@link SQLException} becomes the {@link Wording}'s sentence.
 */
public final class Transactions {

    /** Work done inside one transaction. */
    @FunctionalInterface
    public interface Work<T> {

        /** Runs against the transaction's connection; an {@link SQLException} rolls the transaction back. */
        T run(Connection connection) throws SQLException;
    }

    private final Connection connection;
    private final Wording wording;
    private final ReentrantLock lock = new ReentrantLock();
    private int depth;
    private boolean writing;

    public Transactions(Connection connection, Wording wording) {
        this.connection = connection;
        this.wording = wording;
    }

    /**
     * Runs {@code work} in a write transaction ({@code BEGIN IMMEDIATE}) and commits it; any
     * exception rolls it back. {@code action} completes the error sentence "cannot &lt;action&gt;: …".
     */
    public <T> T write(String action, Work<T> work) {
        return transaction(action, true, work);
    }

    /** Runs {@code work} in a read transaction: every query inside sees the same snapshot. */
    public <T> T read(String action, Work<T> work) {
        return transaction(action, false, work);
    }

    /**
     * Runs {@code work} in a write transaction and rolls it back whatever happens: what a change
     * would do, measured by doing it. Not inside another transaction.
     */
    public <T> T rehearse(String action, Work<T> work) {
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
                throw wording.failure(action, e);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Closes the connection; {@code action} completes the error sentence. */
    public void close(String action) {
        lock.lock();
        try {
            connection.close();
        } catch (SQLException e) {
            throw wording.failure(action, e);
        } finally {
            lock.unlock();
        }
    }

    private <T> T transaction(String action, boolean write, Work<T> work) {
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

    private <T> T join(String action, boolean write, Work<T> work) {
        if (write && !writing) {
            throw new IllegalStateException("cannot " + action + " inside a read transaction");
        }
        depth++;
        try {
            return work.run(connection);
        } catch (SQLException e) {
            throw wording.failure(action, e);
        } finally {
            depth--;
        }
    }

    private <T> T outermost(String action, boolean write, Work<T> work) {
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
            throw wording.failure(action, e);
        }
    }

    /** Rolls back; quiet, because SQLite ends the transaction itself after some failures (a failed COMMIT, a full disk). */
    static void rollback(Statement statement) {
        try {
            statement.execute("ROLLBACK");
        } catch (SQLException alreadyEnded) {
            // The original failure says more.
        }
    }
}
