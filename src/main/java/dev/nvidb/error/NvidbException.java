package dev.nvidb.error;

import java.util.Optional;

/**
 * The one failure type that reaches the command edge: a sentence for the user, an optional
 * hint saying how to fix it, and the process exit code. Lower layers translate library
 * exceptions (SQL, SSH, I/O, YAML) into one of the permitted subtypes.
 */
public abstract sealed class NvidbException extends RuntimeException
        permits ConfigException, SshException, NodeException, StoreException, UsageException,
        InterruptedByUser {

    /** Exit code for an operation that failed. */
    public static final int EXIT_FAILED = 1;
    /** Exit code for bad input on the command line. */
    public static final int EXIT_USAGE = 2;

    private final String hint;
    private final int exitCode;

    protected NvidbException(String message, String hint, int exitCode, Throwable cause) {
        super(message, cause);
        this.hint = hint;
        this.exitCode = exitCode;
    }

    /** A short machine-readable kind, used as {@code error.type} in JSON envelopes. */
    public abstract String type();

    public Optional<String> hint() {
        return Optional.ofNullable(hint);
    }

    public int exitCode() {
        return exitCode;
    }
}
