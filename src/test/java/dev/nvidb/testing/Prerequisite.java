package dev.nvidb.testing;

import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs from the machine: outside CI a missing piece skips the test with the reason;
 * in CI ({@code CI=true}) it fails, because .ci/run installs everything and a skip there would
 * hide a missing feature.
 */
public final class Prerequisite {

    private Prerequisite() {
    }

    /** Skips (outside CI) or fails (in CI) with {@code why} unless {@code present}. */
    public static void require(boolean present, String why) {
        if (present) {
            return;
        }
        if ("true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("CI prerequisite missing: " + why);
        }
        Assumptions.abort(why);
    }
}
