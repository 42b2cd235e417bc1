package dev.nvidb.error;

/** The command line was wrong: a bad option value, an unknown id, a missing file. */
public final class UsageException extends NvidbException {

    public UsageException(String message) {
        this(message, null, null);
    }

    public UsageException(String message, String hint) {
        this(message, hint, null);
    }

    public UsageException(String message, String hint, Throwable cause) {
        super(message, hint, EXIT_USAGE, cause);
    }

    @Override
    public String type() {
        return "usage";
    }
}
