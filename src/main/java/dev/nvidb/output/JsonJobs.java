package dev.nvidb.output;

import java.util.List;

/** The job documents: one job ({@code job submit}, {@code job show}) or a list ({@code job ls}). */
public final class JsonJobs {

    private JsonJobs() {
    }

    /** {@code {"schema_version", "ok", "job": {…}, "logs": …}}; {@code logs} only from {@code job show --logs}. */
    public record One(int schemaVersion, boolean ok, JsonJob job, String logs) {
    }

    /** {@code {"schema_version", "ok", "count", "jobs": [...]}}. */
    public record Many(int schemaVersion, boolean ok, int count, List<JsonJob> jobs) {
    }

    public static One one(JsonJob job, String logs) {
        return new One(Json.SCHEMA_VERSION, true, job, logs);
    }

    public static Many many(List<JsonJob> jobs) {
        return new Many(Json.SCHEMA_VERSION, true, jobs.size(), jobs);
    }
}
