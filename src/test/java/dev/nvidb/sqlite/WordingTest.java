package dev.nvidb.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.nvidb.error.StoreException;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

class WordingTest {

    private static final Wording QUEUE = Wording.plain().busy("busy hint", false).full("full hint")
            .readOnly("read-only hint").damaged(null, "damaged hint");
    private static final Path LOG = Path.of("/home/a/.nvidb/gpu_log.db");
    private static final Wording GPU_LOG = Wording.plain().in(LOG).busy("busy hint", true)
            .damaged(LOG + " is not a readable GPU log", "move it aside");

    @Test
    void aFailureIsOneSentenceWithSqlitesReasonAndTheHintOfItsKind() {
        StoreException busy = QUEUE.failure("save job 42", sqlite(SQLiteErrorCode.SQLITE_BUSY, "database is locked"));
        assertEquals("cannot save job 42: database is locked", busy.getMessage());
        assertEquals("busy hint", busy.hint().orElseThrow());
        assertEquals("busy hint", QUEUE.failure("x", sqlite(SQLiteErrorCode.SQLITE_BUSY_SNAPSHOT, "snapshot")).hint().orElseThrow());
        assertEquals("busy hint", QUEUE.failure("x", sqlite(SQLiteErrorCode.SQLITE_LOCKED, "locked")).hint().orElseThrow());
        assertEquals("full hint", QUEUE.failure("x", sqlite(SQLiteErrorCode.SQLITE_FULL, "full")).hint().orElseThrow());
        assertEquals("read-only hint", QUEUE.failure("x", sqlite(SQLiteErrorCode.SQLITE_CANTOPEN, "cannot open")).hint().orElseThrow());
        StoreException damaged = QUEUE.failure("open q", sqlite(SQLiteErrorCode.SQLITE_NOTADB, "file is not a database"));
        assertEquals("cannot open q: file is not a database", damaged.getMessage());
        assertEquals("damaged hint", damaged.hint().orElseThrow());
        assertNull(QUEUE.failure("x", new SQLException("no code")).hint().orElse(null));
        assertEquals("cannot x: no code", QUEUE.failure("x", new SQLException("no code")).getMessage());
    }

    @Test
    void eachDatabaseSaysWhereItFailedHowADamagedFileReadsAndWhetherASharedLockIsBusy() {
        assertEquals("cannot record a sample in " + LOG + ": database is locked",
                GPU_LOG.failure("record a sample", sqlite(SQLiteErrorCode.SQLITE_BUSY, "database is locked")).getMessage());
        StoreException damaged = GPU_LOG.failure("open", sqlite(SQLiteErrorCode.SQLITE_NOTADB, "file is not a database"));
        assertEquals(LOG + " is not a readable GPU log (file is not a database)", damaged.getMessage());
        assertEquals("move it aside", damaged.hint().orElseThrow());
        assertNull(GPU_LOG.failure("x", sqlite(SQLiteErrorCode.SQLITE_FULL, "full")).hint().orElse(null));
        SQLException sharedLock = sqlite(SQLiteErrorCode.SQLITE_LOCKED_SHAREDCACHE, "database table is locked");
        assertEquals("busy hint", GPU_LOG.failure("x", sharedLock).hint().orElseThrow());
        assertNull(QUEUE.failure("x", sharedLock).hint().orElse(null));
    }

    private static SQLException sqlite(SQLiteErrorCode code, String reason) {
        return new SQLiteException("[" + code.name() + "] " + code.message + " (" + reason + ")", code);
    }
}
