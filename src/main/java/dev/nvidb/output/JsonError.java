package dev.nvidb.output;

/**
 * The envelope of a failed command in {@code --json} mode:
 * {@code {"schema_version": 1, "ok": false, "error": {"type", "message", "hint"}}}.
 */
public record JsonError(int schemaVersion, boolean ok, Detail error) {

    /** What went wrong, in the same words as the one-line message on stderr. */
    public record Detail(String type, String message, String hint) {
    }

    public static JsonError of(String type, String message, String hint) {
        return new JsonError(Json.SCHEMA_VERSION, false, new Detail(type, message, hint));
    }
}
