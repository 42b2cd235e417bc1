package dev.nvidb.error;

/**
 * The user stopped a command (Ctrl-C, or the thread was interrupted while it waited). Always
 * exit code 130, wherever in the command it lands; the thread's interrupt flag is restored by
 * whoever throws it.
 */
public final class InterruptedByUser extends NvidbException {

    /** Exit code after Ctrl-C (128 + SIGINT). */
    public static final int EXIT_INTERRUPTED = 130;

    public InterruptedByUser(String message) {
        super(message, null, EXIT_INTERRUPTED, null);
    }

    public InterruptedByUser(String message, Throwable cause) {
        super(message, null, EXIT_INTERRUPTED, cause);
    }

    @Override
    public String type() {
        return "interrupted";
    }
}
