package dev.nvidb.sqlite;

import java.sql.SQLException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** What kind of failure an {@link SQLException} of SQLite's is, and SQLite's own short sentence for it. */
public final class SqlFailure {

    /** The kinds of failure a database words differently ({@link Wording}). */
    public enum Kind {
        /** Another connection held the lock too long: {@code SQLITE_BUSY} (and its variants) or {@code SQLITE_LOCKED}. */
        BUSY,
        /** A lock inside a shared cache or a virtual table ({@code SQLITE_LOCKED_*}); nvidb uses neither. */
        SHARED_LOCK,
        /** The disk is full. */
        FULL,
        /** The file cannot be written or opened: read-only, cannot open, no permission. */
        READ_ONLY,
        /** The file is not a database, or a damaged one. */
        DAMAGED,
        /** Anything else, or an exception without SQLite's code. */
        OTHER
    }

    private SqlFailure() {
    }

    /** The kind of {@code e}. */
    public static Kind kind(SQLException e) {
        if (!(e instanceof SQLiteException sqlite) || sqlite.getResultCode() == null) {
            return Kind.OTHER;
        }
        SQLiteErrorCode code = sqlite.getResultCode();
        String name = code.name();
        if (code == SQLiteErrorCode.SQLITE_BUSY || code == SQLiteErrorCode.SQLITE_LOCKED || name.startsWith("SQLITE_BUSY_")) {
            return Kind.BUSY;
        }
        if (name.startsWith("SQLITE_LOCKED_")) {
            return Kind.SHARED_LOCK;
        }
        if (name.startsWith("SQLITE_FULL")) {
            return Kind.FULL;
        }
        if (name.startsWith("SQLITE_READONLY") || name.startsWith("SQLITE_CANTOPEN") || name.startsWith("SQLITE_PERM")) {
            return Kind.READ_ONLY;
        }
        if (name.startsWith("SQLITE_CORRUPT") || name.startsWith("SQLITE_NOTADB")) {
            return Kind.DAMAGED;
        }
        return Kind.OTHER;
    }

    /** Another connection held the lock too long ({@link Kind#BUSY}): worth waiting and trying again. */
    public static boolean busy(SQLException e) {
        return kind(e) == Kind.BUSY;
    }

    /** SQLite's own short sentence ("database is locked"), without the driver's prefix. */
    public static String reason(SQLException e) {
        String message = String.valueOf(e.getMessage());
        int open = message.lastIndexOf('(');
        if (message.startsWith("[SQLITE_") && open >= 0 && message.endsWith(")")) {
            return message.substring(open + 1, message.length() - 1);
        }
        return message;
    }
}
