package dev.nvidb.error;

/**
 * The one wording of "there is no such thing" for what a command names in the queue, wherever
 * it is found missing: in the database, or because there is no database yet (a command naming a
 * job creates none: with nothing recorded, nothing it names exists).
 */
public final class Missing {

    private Missing() {
    }

    /** A job named by its id ({@code job show 42}, {@code job cancel 42}, …). */
    public static UsageException job(long id) {
        return new UsageException("no job " + id, "see 'nvidb job ls' for the ids the queue knows");
    }

    /** A job named by {@code --after} or {@code --after-any}. */
    public static UsageException dependency(long id) {
        return new UsageException("job " + id + " does not exist",
                "--after and --after-any take the id of an existing job (see nvidb job ls)");
    }

    /** An alert named by its id ({@code queue ack 7}). */
    public static UsageException alert(long id) {
        return new UsageException("no open alert " + id, "see 'nvidb queue alerts'");
    }
}
