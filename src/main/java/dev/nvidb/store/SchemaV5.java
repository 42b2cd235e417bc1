package dev.nvidb.store;

/**
 * Schema version 5, exactly as shipped: idempotent submits and sweeps. Never edit it: add a
 * migration instead. src/test/resources/store/schema-v5.sql is the frozen copy of the whole v5
 * schema.
 */
final class SchemaV5 {

    private SchemaV5() {
    }

    /**
     * Adds to {@code jobs} the submit's {@code job_key} ({@code --key}: a pending, running or
     * completed job holding it is returned instead of a new one), {@code group_name}
     * ({@code --group}, or an array's group) and {@code array_index} (the cell of an array).
     * {@code job_groups} holds what belongs to a group rather than a job: the running cap of an
     * array ({@code max_running}), the count of quick failures in a row, and a fail-fast hold.
     * {@code op_ids} records each {@code --op-id}: the digest of the request, the jobs a submit
     * stored (written in the insert's transaction) and, once the command ended, its stdout and
     * exit code, replayed to a retry of the same request.
     */
    static final String DDL = """
            ALTER TABLE jobs ADD COLUMN job_key TEXT;
            ALTER TABLE jobs ADD COLUMN group_name TEXT;
            ALTER TABLE jobs ADD COLUMN array_index INTEGER CHECK (array_index IS NULL OR array_index >= 0);
            CREATE INDEX jobs_by_key ON jobs (job_key, state) WHERE job_key IS NOT NULL;
            CREATE INDEX jobs_by_group ON jobs (group_name, state) WHERE group_name IS NOT NULL;
            CREATE TABLE job_groups (
                name           TEXT PRIMARY KEY,
                max_running    INTEGER CHECK (max_running IS NULL OR max_running > 0),
                quick_failures INTEGER NOT NULL DEFAULT 0 CHECK (quick_failures >= 0),
                held_at        INTEGER,
                held_reason    TEXT,
                CHECK ((held_at IS NULL) = (held_reason IS NULL))
            ) WITHOUT ROWID;
            CREATE TABLE op_ids (
                op_id       TEXT PRIMARY KEY,
                digest      TEXT NOT NULL,
                command     TEXT NOT NULL,
                created_at  INTEGER NOT NULL,
                job_ids     TEXT CHECK (job_ids IS NULL OR (json_valid(job_ids) AND json_type(job_ids) = 'array')),
                finished_at INTEGER,
                exit_code   INTEGER,
                stdout      TEXT,
                CHECK ((finished_at IS NULL) = (exit_code IS NULL))
            ) WITHOUT ROWID;
            """;
}
