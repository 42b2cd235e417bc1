package dev.nvidb.doctor;

import java.util.Locale;

/**
 * One thing {@code nvidb doctor} looked at, and how it stands: fine, worth knowing, or needing
 * attention (which makes the command exit 1), with a hint that says how to fix it.
 *
 * @param name   the check's stable key: {@code reachable}, {@code host_key}, {@code auth}, …
 * @param status how it stands
 * @param detail what was found, in words
 * @param hint   what to do about it (problems and notes), or null
 */
public record Check(String name, Status status, String detail, String hint) {

    /** How a check stands. */
    public enum Status {
        /** Fine. */
        OK,
        /** Worth knowing, nothing to fix. */
        NOTE,
        /** Needs attention. */
        PROBLEM;

        /** The name in JSON: {@code ok}, {@code note}, {@code problem}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    static Check ok(String name, String detail) {
        return new Check(name, Status.OK, detail, null);
    }

    static Check note(String name, String detail, String hint) {
        return new Check(name, Status.NOTE, detail, hint);
    }

    static Check problem(String name, String detail, String hint) {
        return new Check(name, Status.PROBLEM, detail, hint);
    }

    public boolean problem() {
        return status == Status.PROBLEM;
    }
}
