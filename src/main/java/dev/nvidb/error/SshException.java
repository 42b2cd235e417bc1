package dev.nvidb.error;

/** A node could not be reached, authenticated or trusted over SSH; the message names host, port and what failed. */
public final class SshException extends NvidbException {

    public SshException(String message) {
        this(message, null, null);
    }

    public SshException(String message, String hint) {
        this(message, hint, null);
    }

    public SshException(String message, String hint, Throwable cause) {
        super(message, hint, EXIT_FAILED, cause);
    }

    @Override
    public String type() {
        return "ssh";
    }
}
