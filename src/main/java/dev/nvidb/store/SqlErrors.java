package dev.nvidb.store;

import dev.nvidb.error.StoreException;
import java.sql.SQLException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Turns SQLite's exceptions into one sentence: {@code cannot save job 42: database is locked}. */
final class SqlErrors {

    private SqlErrors() {
    }

    /** The store exception for {@code action} ("save job 42") failing with {@code e}. */
    static StoreException translate(String action, SQLException e) {
        return new StoreException("cannot " + action + ": " + reason(e), hint(e), e);
    }

    /** SQLite's own short sentence ("database is locked"), without the driver's prefix. */
    static String reason(SQLException e) {
        String message = String.valueOf(e.getMessage());
        int open = message.lastIndexOf('(');
        if (message.startsWith("[SQLITE_") && open >= 0 && message.endsWith(")")) {
            return message.substring(open + 1, message.length() - 1);
        }
        return message;
    }

    static boolean busy(SQLException e) {
        SQLiteErrorCode code = code(e);
        return code == SQLiteErrorCode.SQLITE_BUSY || code == SQLiteErrorCode.SQLITE_LOCKED
                || (code != null && code.name().startsWith("SQLITE_BUSY_"));
    }

    private static String hint(SQLException e) {
        if (busy(e)) {
            return "another nvidb process held queue.db too long; try again";
        }
        SQLiteErrorCode code = code(e);
        if (code == null) {
            return null;
        }
        String name = code.name();
        if (name.startsWith("SQLITE_FULL")) {
            return "free some disk space where queue.db lives";
        }
        if (name.startsWith("SQLITE_READONLY") || name.startsWith("SQLITE_CANTOPEN") || name.startsWith("SQLITE_PERM")) {
            return "check that you own queue.db and its folder (mode 0600 / 0700)";
        }
        if (name.startsWith("SQLITE_CORRUPT") || name.startsWith("SQLITE_NOTADB")) {
            return "queue.db is damaged: restore a copy you made, or move it aside to start an empty queue"
                    + " (sqlite3's .recover may save its jobs)";
        }
        return null;
    }

    private static SQLiteErrorCode code(SQLException e) {
        return e instanceof SQLiteException sqlite ? sqlite.getResultCode() : null;
    }
}
