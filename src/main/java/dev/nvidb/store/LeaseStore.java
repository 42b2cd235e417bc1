package dev.nvidb.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;

/**
 * The single-row tick lease. Every operation is a compare-and-set on holder and expiry:
 * acquire succeeds when the lease is free or expired, renew and release only for the holder
 * of an unexpired lease. All clients share one host clock (SQLite is never on a network share),
 * but that clock may jump: an expiry further ahead than the lease's length (plus
 * {@link Lease#SKEW_TOLERANCE}) was written by a clock that was ahead, and counts as expired
 * rather than blocking every tick until real time catches up.
 */
public final class LeaseStore {

    private static final String ACQUIRE = """
            UPDATE lease SET holder = ?, acquired_at = ?, expires_at = ?, generation = generation + 1
            WHERE id = 1 AND generation = ?
            """;
    private static final String RENEW = """
            UPDATE lease SET expires_at = ? WHERE id = 1 AND holder = ? AND expires_at > ?
            """;
    private static final String RELEASE = """
            UPDATE lease SET holder = NULL, acquired_at = NULL, expires_at = 0 WHERE id = 1 AND holder = ?
            """;
    private static final String CURRENT = "SELECT holder, acquired_at, expires_at, generation FROM lease WHERE id = 1";

    private final Database database;

    public LeaseStore(Database database) {
        this.database = database;
    }

    /**
     * Takes the lease for {@code holder} until {@code now + ttl} if it is free, expired, or
     * expires further ahead than {@code ttl} allows (a clock that was ahead wrote it).
     */
    public boolean acquire(Connection connection, String holder, Instant now, Duration ttl) throws SQLException {
        return acquire(connection, holder, now, ttl, lease -> lease.free(now, ttl));
    }

    /**
     * Takes the lease for {@code holder} until {@code now + ttl} if {@code takeable} says the
     * lease as it is now may be taken (the caller's rule: free, expired, from the future, or
     * its holder provably dead). A compare-and-set on the generation it judged.
     */
    public boolean acquire(Connection connection, String holder, Instant now, Duration ttl, Predicate<Lease> takeable)
            throws SQLException {
        Lease lease = current(connection);
        if (!takeable.test(lease)) {
            return false;
        }
        return Columns.update(connection, ACQUIRE, holder, now, now.plus(ttl), lease.generation()) == 1;
    }

    public boolean acquire(String holder, Instant now, Duration ttl) {
        return database.write("take the tick lease", conn -> acquire(conn, holder, now, ttl));
    }

    /** Extends the lease to {@code now + ttl}; false unless {@code holder} holds it unexpired. */
    public boolean renew(Connection connection, String holder, Instant now, Duration ttl) throws SQLException {
        return Columns.update(connection, RENEW, now.plus(ttl), holder, now) == 1;
    }

    public boolean renew(String holder, Instant now, Duration ttl) {
        return database.write("renew the tick lease", conn -> renew(conn, holder, now, ttl));
    }

    /** Gives the lease up; false when {@code holder} did not hold it (it expired and was taken, or never was). */
    public boolean release(Connection connection, String holder) throws SQLException {
        return Columns.update(connection, RELEASE, holder) == 1;
    }

    public boolean release(String holder) {
        return database.write("release the tick lease", conn -> release(conn, holder));
    }

    /** The lease as it is now. */
    public Lease current(Connection connection) throws SQLException {
        return read(connection);
    }

    /** The lease as {@code connection} sees it (any connection, read-only ones included). */
    static Lease read(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(CURRENT);
             ResultSet rows = statement.executeQuery()) {
            rows.next();
            return fromRow(rows);
        }
    }

    public Lease current() {
        return database.read("read the tick lease", this::current);
    }

    private static Lease fromRow(ResultSet rows) throws SQLException {
        return new Lease(rows.getString("holder"), Columns.instant(rows, "acquired_at"),
                Columns.instant(rows, "expires_at"), rows.getLong("generation"));
    }
}
