package dev.nvidb.store;

/**
 * Schema version 7, exactly as shipped: {@code --allow-slurm}. Never edit it: add a migration
 * instead. src/test/resources/store/schema-v7.sql is the frozen copy of the whole v7 schema.
 */
final class SchemaV7 {

    private SchemaV7() {
    }

    /** Adds {@code jobs.allow_slurm}: the job may go to a Slurm node when the workstations cannot place it now. */
    static final String DDL = """
            ALTER TABLE jobs ADD COLUMN allow_slurm INTEGER NOT NULL DEFAULT 0 CHECK (allow_slurm IN (0, 1));
            """;
}
