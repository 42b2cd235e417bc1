package dev.nvidb.error;

/** A configuration file is malformed or names something that does not exist; the message names file and line. */
public final class ConfigException extends NvidbException {

    public ConfigException(String message) {
        this(message, null, null);
    }

    public ConfigException(String message, String hint) {
        this(message, hint, null);
    }

    public ConfigException(String message, String hint, Throwable cause) {
        super(message, hint, EXIT_USAGE, cause);
    }

    @Override
    public String type() {
        return "config";
    }
}
