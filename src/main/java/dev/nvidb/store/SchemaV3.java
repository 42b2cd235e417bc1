package dev.nvidb.store;

/**
 * Schema version 3, exactly as shipped: the environment a job was submitted with (for jobs
 * that run on the local node), and cancels owed to jobs whose node did not answer. Never edit
 * it: add a migration instead. src/test/resources/store/schema-v3.sql is the frozen copy of
 * the whole v3 schema.
 */
final class SchemaV3 {

    private SchemaV3() {
    }

    /**
     * Adds {@code jobs.submit_env} (a JSON object of the submitter's environment, or NULL: jobs
     * of older versions, and jobs that cannot run on the local node) and the table
     * {@code cancel_requests}: a cancel of a running job whose node could not be asked whether
     * it already ended. The next probe that reaches the node settles the job by its exit file
     * or cancels it. One request per job; no foreign key, like pending reaps.
     */
    static final String DDL = """
            ALTER TABLE jobs ADD COLUMN submit_env TEXT
                CHECK (submit_env IS NULL OR (json_valid(submit_env) AND json_type(submit_env) = 'object'));
            CREATE TABLE cancel_requests (
                job_id       INTEGER PRIMARY KEY,
                attempt      INTEGER NOT NULL CHECK (attempt >= 0),
                reason       TEXT NOT NULL,
                requested_at INTEGER NOT NULL
            );
            """;
}
