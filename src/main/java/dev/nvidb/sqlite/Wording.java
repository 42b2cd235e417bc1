package dev.nvidb.sqlite;

import dev.nvidb.error.StoreException;
import java.nio.file.Path;
import java.sql.SQLException;

/**
 * How one database words SQLite's failures: one sentence, {@code cannot <action><place>: <reason>}
 * ("cannot save job 42: database is locked"), and a hint by the failure's {@link SqlFailure.Kind}.
 * Start from {@link #plain()} and name what differs; a hint left null is none.
 *
 * @param place           appended to the action: empty, or {@code " in <file>"}
 * @param busyHint        the hint of {@link SqlFailure.Kind#BUSY}
 * @param sharedLockBusy  whether {@link SqlFailure.Kind#SHARED_LOCK} reads as busy (its hint) or gets none
 * @param fullHint        the hint of {@link SqlFailure.Kind#FULL}
 * @param readOnlyHint    the hint of {@link SqlFailure.Kind#READ_ONLY}
 * @param damagedHint     the hint of {@link SqlFailure.Kind#DAMAGED}
 * @param damagedSentence when not null, a damaged file is {@code <damagedSentence> (<reason>)} whatever the action
 */
public record Wording(String place, String busyHint, boolean sharedLockBusy, String fullHint, String readOnlyHint,
                      String damagedHint, String damagedSentence) {

    /** "cannot &lt;action&gt;: &lt;reason&gt;" and no hints. */
    public static Wording plain() {
        return new Wording("", null, false, null, null, null, null);
    }

    /** Names the file after the action: "cannot record a sample in /home/a/.nvidb/gpu_log.db: …". */
    public Wording in(Path file) {
        return new Wording(" in " + file, busyHint, sharedLockBusy, fullHint, readOnlyHint, damagedHint, damagedSentence);
    }

    /** The hint of a busy database; {@code sharedLock}: a shared-cache or virtual-table lock reads as busy too. */
    public Wording busy(String hint, boolean sharedLock) {
        return new Wording(place, hint, sharedLock, fullHint, readOnlyHint, damagedHint, damagedSentence);
    }

    /** The hint of a full disk. */
    public Wording full(String hint) {
        return new Wording(place, busyHint, sharedLockBusy, hint, readOnlyHint, damagedHint, damagedSentence);
    }

    /** The hint of a file that cannot be opened or written. */
    public Wording readOnly(String hint) {
        return new Wording(place, busyHint, sharedLockBusy, fullHint, hint, damagedHint, damagedSentence);
    }

    /** The hint of a damaged file, and its own sentence (null: "cannot &lt;action&gt;: …" as any failure). */
    public Wording damaged(String sentence, String hint) {
        return new Wording(place, busyHint, sharedLockBusy, fullHint, readOnlyHint, hint, sentence);
    }

    /** The store exception for {@code action} ("save job 42") failing with {@code e}. */
    public StoreException failure(String action, SQLException e) {
        SqlFailure.Kind kind = SqlFailure.kind(e);
        String reason = SqlFailure.reason(e);
        if (kind == SqlFailure.Kind.DAMAGED && damagedSentence != null) {
            return new StoreException(damagedSentence + " (" + reason + ")", damagedHint, e);
        }
        return new StoreException("cannot " + action + place + ": " + reason, hint(kind), e);
    }

    private String hint(SqlFailure.Kind kind) {
        return switch (kind) {
            case BUSY -> busyHint;
            case SHARED_LOCK -> sharedLockBusy ? busyHint : null;
            case FULL -> fullHint;
            case READ_ONLY -> readOnlyHint;
            case DAMAGED -> damagedHint;
            case OTHER -> null;
        };
    }
}
