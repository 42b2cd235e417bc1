package dev.nvidb.store;

/**
 * Schema version 4, exactly as shipped: alert delivery exactly once per channel. Never edit it:
 * add a migration instead. src/test/resources/store/schema-v4.sql is the frozen copy of the
 * whole v4 schema.
 */
final class SchemaV4 {

    private SchemaV4() {
    }

    /**
     * Adds to {@code alert_deliveries} the claim a daemon takes before it delivers
     * ({@code claimed_by}, {@code claim_expires_at}: a compare-and-set, so two daemons never
     * deliver one alert on one channel at once, and an expired claim of a killed daemon is taken
     * over), the back-off of a failing channel ({@code next_attempt_at}, {@code last_attempt_at}),
     * and {@code not_owed}: why an alert is never delivered on that channel (below
     * {@code min_severity}, acknowledged before delivery). The table {@code notify_channels}
     * records when each channel first delivered and {@code backlog_until}: alerts up to that id
     * were raised more than a day before the channel began and are not owed to it.
     */
    static final String DDL = """
            ALTER TABLE alert_deliveries ADD COLUMN claimed_by TEXT;
            ALTER TABLE alert_deliveries ADD COLUMN claim_expires_at INTEGER;
            ALTER TABLE alert_deliveries ADD COLUMN next_attempt_at INTEGER;
            ALTER TABLE alert_deliveries ADD COLUMN last_attempt_at INTEGER;
            ALTER TABLE alert_deliveries ADD COLUMN not_owed TEXT;
            CREATE TABLE notify_channels (
                channel       TEXT PRIMARY KEY,
                started_at    INTEGER NOT NULL,
                backlog_until INTEGER NOT NULL CHECK (backlog_until >= 0)
            ) WITHOUT ROWID;
            """;
}
