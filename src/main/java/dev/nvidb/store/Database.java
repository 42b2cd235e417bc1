package dev.nvidb.store;

import dev.nvidb.sqlite.SqliteFile;
import dev.nvidb.sqlite.Transactions;
import dev.nvidb.sqlite.Wording;
import java.nio.file.Path;
import java.time.Duration;

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

    /** How queue.db words SQLite's failures: "cannot save job 42: database is locked", a hint by kind. */
    static final Wording WORDING = Wording.plain()
            .busy("another nvidb process held queue.db too long; try again", false)
            .full("free some disk space where queue.db lives")
            .readOnly("check that you own queue.db and its folder (mode 0600 / 0700)")
            .damaged(null, "queue.db is damaged: restore a copy you made, or move it aside to start an empty queue"
                    + " (sqlite3's .recover may save its jobs)");

    private final Path file;
    private final Transactions transactions;

    private Database(Path file, Transactions transactions) {
        this.file = file;
        this.transactions = transactions;
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
        SqliteFile.createOwnerOnly(absolute, null);
        return new Database(absolute, new Transactions(SqliteFile.open(absolute, busyTimeout, WORDING, "open " + absolute,
                connection -> Migrations.migrate(connection, absolute, busyTimeout)), WORDING));
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
        return transactions.write(action, work::run);
    }

    /**
     * Runs {@code work} in a write transaction and rolls it back whatever happens: what a change
     * would do, measured by doing it ({@code --dry-run}). Not inside another transaction.
     */
    public <T> T rehearse(String action, SqlWork<T> work) {
        return transactions.rehearse(action, work::run);
    }

    /** Runs {@code work} in a read transaction: every query inside sees the same snapshot. */
    public <T> T read(String action, SqlWork<T> work) {
        return transactions.read(action, work::run);
    }

    @Override
    public void close() {
        transactions.close("close " + file);
    }
}
