package dev.nvidb.error;

/** A node answered but could not do what was asked (agent failed, NVML missing, bad reply). */
public final class NodeException extends NvidbException {

    public NodeException(String message) {
        this(message, null, null);
    }

    public NodeException(String message, String hint) {
        this(message, hint, null);
    }

    public NodeException(String message, String hint, Throwable cause) {
        super(message, hint, EXIT_FAILED, cause);
    }

    @Override
    public String type() {
        return "node";
    }
}
