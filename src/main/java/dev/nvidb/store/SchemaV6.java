package dev.nvidb.store;

/**
 * Schema version 6, exactly as shipped: failure classes, OOM retries and exclusive jobs. Never
 * edit it: add a migration instead. src/test/resources/store/schema-v6.sql is the frozen copy of
 * the whole v6 schema.
 */
final class SchemaV6 {

    private SchemaV6() {
    }

    /**
     * Adds to {@code jobs}: {@code failure_class} (why a job that ran ended badly:
     * {@code model.FailureClass}), {@code retry_oom} ({@code --retry-oom N}), {@code oom_retries}
     * (how many of them were used) and {@code exclusive} ({@code --exclusive}). Older rows that
     * were lost or timed out get that class, failed ones with an exit status {@code signal}
     * (129..159) or {@code exit_code}; an older failure cannot be known to be an OOM (its log was
     * not read for it), and a failed job without an exit status never ran.
     */
    static final String DDL = """
            ALTER TABLE jobs ADD COLUMN failure_class TEXT CHECK (failure_class IS NULL
                OR failure_class IN ('oom', 'signal', 'exit_code', 'launch', 'lost', 'timeout'));
            ALTER TABLE jobs ADD COLUMN retry_oom INTEGER NOT NULL DEFAULT 0 CHECK (retry_oom BETWEEN 0 AND 10);
            ALTER TABLE jobs ADD COLUMN oom_retries INTEGER NOT NULL DEFAULT 0 CHECK (oom_retries >= 0);
            ALTER TABLE jobs ADD COLUMN exclusive INTEGER NOT NULL DEFAULT 0 CHECK (exclusive IN (0, 1));
            UPDATE jobs SET failure_class = CASE
                WHEN state = 'lost' THEN 'lost'
                WHEN state = 'timeout' THEN 'timeout'
                WHEN state = 'failed' AND exit_code BETWEEN 129 AND 159 THEN 'signal'
                WHEN state = 'failed' AND exit_code IS NOT NULL THEN 'exit_code'
                END
            WHERE state IN ('lost', 'timeout', 'failed');
            """;
}
