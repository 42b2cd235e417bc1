package dev.nvidb.sqlite;

import dev.nvidb.error.StoreException;
import java.nio.file.Path;
import java.util.List;

/**
 * One database's schema as {@link Migrator} applies it: steps keyed on {@code PRAGMA user_version},
 * only ever appended, optionally a mark in {@code PRAGMA application_id}, and the database's own
 * sentences for a file it refuses.
 */
public interface Schema {

    /** Every step, in order: step {@code i} (from 0) brings {@code user_version} from {@code i} to {@code i + 1}. */
    List<String> steps();

    /** The schema version this build writes. */
    default int currentVersion() {
        return steps().size();
    }

    /**
     * The {@code PRAGMA application_id} that marks a file as this database's; 0 when the file is
     * not marked, and then no file is refused as foreign.
     */
    default int applicationId() {
        return 0;
    }

    /** The refusal of {@code file}, written by a newer nvidb at schema {@code version}. */
    StoreException newer(Path file, int version);

    /** The refusal of {@code file}, another SQLite database; asked only when {@link #applicationId()} is not 0. */
    default StoreException foreign(Path file) {
        throw new IllegalStateException("a schema without an application id refuses no file as foreign");
    }
}
