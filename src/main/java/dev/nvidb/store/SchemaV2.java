package dev.nvidb.store;

/**
 * Schema version 2, exactly as shipped: failed launches are counted in a column instead of
 * being read back out of {@code last_error}. Never edit it: add a migration instead.
 * src/test/resources/store/schema-v2.sql is the frozen copy of the whole v2 schema.
 */
final class SchemaV2 {

    private SchemaV2() {
    }

    /**
     * Adds {@code jobs.launch_failures}. Pending jobs whose last launch failed (the v1 engine
     * wrote "launch failed on …" into {@code last_error}, and held the job after the second)
     * start with the count they would have had, so an upgrade neither forgets a failure nor
     * releases a hold.
     */
    static final String DDL = """
            ALTER TABLE jobs ADD COLUMN launch_failures INTEGER NOT NULL DEFAULT 0 CHECK (launch_failures >= 0);
            UPDATE jobs SET launch_failures = CASE WHEN hold_reason LIKE 'its launch failed twice%' THEN 2 ELSE 1 END
            WHERE state = 'pending' AND last_error LIKE 'launch failed on %';
            """;
}
