package dev.nvidb.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Delivery of alerts, exactly once per channel (schema v4, docs/schema.md). An alert is owed to
 * a channel until it is delivered there or found not owed (below {@code min_severity},
 * acknowledged before delivery, raised long before the channel began); a daemon claims an owed
 * alert with a compare-and-set before delivering it, so two daemons never deliver it on one
 * channel at once, and a claim that expired (its daemon was killed) is taken over. A failed
 * attempt keeps the alert owed, counts the attempt, keeps the error and backs off.
 *
 * <p>Times read back more than their own length ahead of now (a claim longer than the claim,
 * a back-off longer than the longest back-off, plus {@link Lease#SKEW_TOLERANCE}) were written
 * by a clock ahead of this one and are not trusted to hold anything back.
 */
public final class DeliveryStore {

    /** Reasons an alert is not owed to a channel, as stored in {@code not_owed}. */
    public static final String BELOW_MIN_SEVERITY = "below min_severity";
    public static final String ACKNOWLEDGED = "acknowledged before delivery";

    /** An alert claimed for delivery on a channel, with the attempts made before this one. */
    public record Claim(Alert alert, String channel, int attempts) {
    }

    /**
     * Where a channel stands: when it began ({@code null}: no daemon has delivered on it), how
     * many alerts it owes, how many of those failed at least once, and the latest failure.
     */
    public record ChannelState(String channel, Instant startedAt, long owed, long failing, String lastError,
                               Instant lastErrorAt, Instant nextAttemptAt) {
    }

    private static final String RANK = "(CASE a.severity WHEN 'error' THEN 3 WHEN 'warning' THEN 2 ELSE 1 END)";
    /** A delivery row that is neither done nor given up: the alert is still owed. */
    private static final String OWED_ROW = "d.delivered_at IS NULL AND d.not_owed IS NULL";
    /** ?3 now, ?4 the furthest a live claim can reach, ?5 the furthest a back-off can reach. */
    private static final String CLAIM_FREE =
            "(d.claim_expires_at IS NULL OR d.claim_expires_at <= ?3 OR d.claim_expires_at > ?4)";
    private static final String DUE = "(d.next_attempt_at IS NULL OR d.next_attempt_at <= ?3 OR d.next_attempt_at > ?5)";
    private static final String BACKLOG = "(SELECT backlog_until FROM notify_channels WHERE channel = ?1)";

    private static final String START = """
            INSERT INTO notify_channels (channel, started_at, backlog_until)
            VALUES (?1, ?2, COALESCE((SELECT max(id) FROM alerts WHERE at < ?3), 0))
            ON CONFLICT (channel) DO NOTHING
            """;
    private static final String BACKLOG_OPEN = """
            SELECT count(*) FROM alerts WHERE id <= (SELECT backlog_until FROM notify_channels WHERE channel = ?1)
            AND acknowledged_at IS NULL
            """;
    /** ?1 channel, ?2 (unused), ?3 now, ?4 claim horizon, ?5 back-off horizon, ?6 minimum rank, ?7 acknowledged are not owed. */
    private static final String NOT_OWED = """
            INSERT INTO alert_deliveries (alert_id, channel, attempts, not_owed)
            SELECT a.id, ?1, 0, CASE WHEN %1$s < ?6 THEN '%2$s' ELSE '%3$s' END
            FROM alerts a LEFT JOIN alert_deliveries d ON d.alert_id = a.id AND d.channel = ?1
            WHERE a.id > %4$s AND (%1$s < ?6 OR (?7 = 1 AND a.acknowledged_at IS NOT NULL))
              AND (d.alert_id IS NULL OR (%5$s AND %6$s))
            ON CONFLICT (alert_id, channel) DO UPDATE SET not_owed = excluded.not_owed, claimed_by = NULL,
                claim_expires_at = NULL, next_attempt_at = NULL
            """.formatted(RANK, BELOW_MIN_SEVERITY, ACKNOWLEDGED, BACKLOG, OWED_ROW, CLAIM_FREE);
    /** ?1 channel, ?2 (unused), ?3 now, ?4 claim horizon, ?5 back-off horizon, ?6 minimum rank, ?7 acknowledged are not owed. */
    private static final String NEXT = """
            SELECT a.id, d.attempts FROM alerts a LEFT JOIN alert_deliveries d ON d.alert_id = a.id AND d.channel = ?1
            WHERE a.id > %s AND %s >= ?6 AND NOT (?7 = 1 AND a.acknowledged_at IS NOT NULL)
              AND (d.alert_id IS NULL OR (%s AND %s AND %s))
            ORDER BY a.id LIMIT 1
            """.formatted(BACKLOG, RANK, OWED_ROW, CLAIM_FREE, DUE);
    /** The compare-and-set: ?1 alert, ?2 channel, ?3 claimant, ?4 claim expiry, ?5 now, ?6 claim horizon, ?7 back-off horizon. */
    private static final String CLAIM = """
            INSERT INTO alert_deliveries (alert_id, channel, attempts, claimed_by, claim_expires_at) VALUES (?1, ?2, 0, ?3, ?4)
            ON CONFLICT (alert_id, channel) DO UPDATE SET claimed_by = excluded.claimed_by,
                claim_expires_at = excluded.claim_expires_at
            WHERE delivered_at IS NULL AND not_owed IS NULL
              AND (claim_expires_at IS NULL OR claim_expires_at <= ?5 OR claim_expires_at > ?6)
              AND (next_attempt_at IS NULL OR next_attempt_at <= ?5 OR next_attempt_at > ?7)
            """;
    private static final String DELIVERED = """
            UPDATE alert_deliveries SET delivered_at = ?3, last_attempt_at = ?3, attempts = attempts + 1,
                last_error = NULL, claimed_by = NULL, claim_expires_at = NULL, next_attempt_at = NULL
            WHERE alert_id = ?1 AND channel = ?2 AND delivered_at IS NULL
            """;
    private static final String FAILED = """
            UPDATE alert_deliveries SET attempts = attempts + 1, last_error = ?3, last_attempt_at = ?4,
                next_attempt_at = ?5, claimed_by = NULL, claim_expires_at = NULL
            WHERE alert_id = ?1 AND channel = ?2 AND delivered_at IS NULL AND not_owed IS NULL AND claimed_by = ?6
            """;
    /** ?1 channel, ?2 (unused), ?3 (unused), ?4 (unused), ?5 (unused), ?6 minimum rank, ?7 acknowledged are not owed. */
    private static final String OWED = """
            SELECT count(*) FROM alerts a LEFT JOIN alert_deliveries d ON d.alert_id = a.id AND d.channel = ?1
            WHERE a.id > %s AND %s >= ?6 AND NOT (?7 = 1 AND a.acknowledged_at IS NOT NULL)
              AND (d.alert_id IS NULL OR (%s))
            """.formatted(BACKLOG, RANK, OWED_ROW);
    private static final String FAILING = """
            SELECT count(*), max(d.last_attempt_at), min(d.next_attempt_at) FROM alert_deliveries d
            WHERE d.channel = ?1 AND %s AND d.last_error IS NOT NULL
            """.formatted(OWED_ROW);
    private static final String LAST_ERROR = """
            SELECT d.last_error FROM alert_deliveries d WHERE d.channel = ?1 AND %s AND d.last_error IS NOT NULL
            ORDER BY d.last_attempt_at DESC, d.alert_id DESC LIMIT 1
            """.formatted(OWED_ROW);

    /** The statements run on the connection of the caller's transaction. */
    public DeliveryStore() {
    }

    /**
     * Records that {@code channel} begins now, once: alerts raised before {@code backlogBefore}
     * are its backlog and not owed to it. Returns how many of those were still open when it
     * began; empty when the channel had begun before.
     */
    public Optional<Long> start(Connection connection, String channel, Instant now, Instant backlogBefore)
            throws SQLException {
        if (Columns.update(connection, START, channel, now, backlogBefore) == 0) {
            return Optional.empty();
        }
        return Optional.of(Columns.queryLong(connection, BACKLOG_OPEN, channel));
    }

    /**
     * Records as not owed on {@code channel} every alert below {@code minRank} (1 info, 2 warning,
     * 3 error) and, when {@code acknowledgedNotOwed}, every acknowledged one, unless it was
     * delivered already or another daemon holds its claim. Returns how many.
     */
    public int markNotOwed(Connection connection, String channel, int minRank, boolean acknowledgedNotOwed,
                           Instant now, Duration claimFor, Duration longestBackOff) throws SQLException {
        return Columns.update(connection, NOT_OWED, channel, "", now, horizon(now, claimFor),
                horizon(now, longestBackOff), minRank, acknowledgedNotOwed);
    }

    /**
     * Claims the oldest alert {@code channel} owes that nobody holds and whose back-off is over,
     * for {@code claimant} until {@code now + claimFor}: empty when there is none. Call it in a
     * write transaction; the claim itself is a compare-and-set on the row.
     */
    public Optional<Claim> claimNext(Connection connection, String channel, String claimant, int minRank,
                                     boolean acknowledgedNotOwed, Instant now, Duration claimFor,
                                     Duration longestBackOff) throws SQLException {
        Instant claimHorizon = horizon(now, claimFor);
        Instant backOffHorizon = horizon(now, longestBackOff);
        long id;
        int attempts;
        try (PreparedStatement statement = connection.prepareStatement(NEXT);
             ResultSet rows = Columns.bind(statement, channel, claimant, now, claimHorizon, backOffHorizon, minRank,
                     acknowledgedNotOwed).executeQuery()) {
            if (!rows.next()) {
                return Optional.empty();
            }
            id = rows.getLong(1);
            attempts = rows.getInt(2);
        }
        if (Columns.update(connection, CLAIM, id, channel, claimant, now.plus(claimFor), now, claimHorizon,
                backOffHorizon) != 1) {
            return Optional.empty();
        }
        try (PreparedStatement statement = connection.prepareStatement(AlertStore.COLUMNS + " WHERE id = ?");
             ResultSet rows = Columns.bind(statement, id).executeQuery()) {
            rows.next();
            return Optional.of(new Claim(AlertStore.fromRow(rows), channel, attempts));
        }
    }

    /** The alert was delivered on the channel: done for good, whoever holds the claim now. */
    public void recordDelivered(Connection connection, long alertId, String channel, Instant now) throws SQLException {
        Columns.update(connection, DELIVERED, alertId, channel, now);
    }

    /**
     * The attempt failed: one more attempt, the error kept, the next attempt not before
     * {@code nextAttemptAt}, the claim released; the alert stays owed. Returns false (and changes
     * nothing) when the claim is no longer {@code claimant}'s.
     */
    public boolean recordFailure(Connection connection, long alertId, String channel, String claimant, String error,
                                 Instant now, Instant nextAttemptAt) throws SQLException {
        return Columns.update(connection, FAILED, alertId, channel, error, now, nextAttemptAt, claimant) == 1;
    }

    /** Where {@code channel} stands (see {@link ChannelState}). */
    public ChannelState state(Connection connection, String channel, int minRank, boolean acknowledgedNotOwed)
            throws SQLException {
        Instant startedAt = null;
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT started_at FROM notify_channels WHERE channel = ?");
             ResultSet rows = Columns.bind(statement, channel).executeQuery()) {
            if (rows.next()) {
                startedAt = Columns.instant(rows, "started_at");
            }
        }
        long owed = startedAt == null ? 0 : Columns.queryLong(connection, OWED, channel, null, null, null, null,
                minRank, acknowledgedNotOwed);
        long failing;
        Instant lastErrorAt;
        Instant nextAttemptAt;
        try (PreparedStatement statement = connection.prepareStatement(FAILING);
             ResultSet rows = Columns.bind(statement, channel).executeQuery()) {
            rows.next();
            failing = rows.getLong(1);
            long last = rows.getLong(2);
            lastErrorAt = rows.wasNull() ? null : Instant.ofEpochMilli(last);
            long next = rows.getLong(3);
            nextAttemptAt = rows.wasNull() ? null : Instant.ofEpochMilli(next);
        }
        String lastError = failing == 0 ? null : queryString(connection, LAST_ERROR, channel);
        return new ChannelState(channel, startedAt, owed, failing, lastError, lastErrorAt, nextAttemptAt);
    }

    private static String queryString(Connection connection, String sql, Object... values) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql);
             ResultSet rows = Columns.bind(statement, values).executeQuery()) {
            return rows.next() ? rows.getString(1) : null;
        }
    }

    private static Instant horizon(Instant now, Duration length) {
        return now.plus(length).plus(Lease.SKEW_TOLERANCE);
    }
}
