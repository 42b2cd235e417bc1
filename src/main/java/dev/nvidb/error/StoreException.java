package dev.nvidb.error;

/** The queue database could not be opened, migrated or written. */
public final class StoreException extends NvidbException {

    public StoreException(String message) {
        this(message, null, null);
    }

    public StoreException(String message, String hint) {
        this(message, hint, null);
    }

    public StoreException(String message, String hint, Throwable cause) {
        super(message, hint, EXIT_FAILED, cause);
    }

    @Override
    public String type() {
        return "store";
    }
}
