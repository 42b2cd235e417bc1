package dev.nvidb.store;

/**
 * Schema version 8, exactly as shipped: the attempt a kill is owed to, in a column of its own.
 * Never edit it: add a migration instead. src/test/resources/store/schema-v8.sql is the frozen
 * copy of the whole v8 schema.
 */
final class SchemaV8 {

    private SchemaV8() {
    }

    /**
     * Adds {@code pending_reaps.job_attempt}: the attempt of the job the kill is owed to (null when
     * the reap names no job). Rows written before it get it from their attempt directory's last
     * component ({@code <job_root>/<queue>/<job>/<attempt>}), once, here: when that is not a
     * number the directory is not one the queue made and the column stays null.
     */
    static final String DDL = """
            ALTER TABLE pending_reaps ADD COLUMN job_attempt INTEGER;
            UPDATE pending_reaps SET job_attempt = (
                SELECT CASE WHEN last <> '' AND last NOT GLOB '*[^0-9]*' AND length(last) < 10
                            THEN CAST(last AS INTEGER) END
                FROM (SELECT substr(job_dir, length(rtrim(job_dir, replace(job_dir, '/', ''))) + 1) AS last))
            WHERE job_dir IS NOT NULL AND job_id IS NOT NULL;
            """;
}
