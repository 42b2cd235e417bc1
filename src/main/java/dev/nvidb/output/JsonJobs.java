package dev.nvidb.output;

import dev.nvidb.queue.JobView;
import dev.nvidb.model.SecretNames;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import java.util.List;

/** The job documents: one job ({@code job submit}, {@code job show}) or a list ({@code job ls}). */
public final class JsonJobs {

    private JsonJobs() {
    }

    /**
     * {@code {"schema_version", "ok", "job": {…}, "logs": …, "env": {…}}}; {@code logs} only from
     * {@code job show --logs}; {@code env} (name → value, credential values masked unless
     * {@code --reveal}) only from {@code job show}.
     */
    public record One(int schemaVersion, boolean ok, JsonJob job, String logs,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> env) {
    }

    /** {@code {"schema_version", "ok", "count", "jobs": [...]}}. */
    public record Many(int schemaVersion, boolean ok, int count, List<JsonJob> jobs) {
    }

    /**
     * {@code job submit}: the job (the first of an array), whether it already existed (its
     * {@code --key} was held, or its {@code --op-id} had stored it), the group, how many jobs the
     * submit stored now, and every job of the submit.
     */
    public record Submitted(int schemaVersion, boolean ok, JsonJob job, boolean existing, String group, long created,
                            List<SubmittedJob> jobs) {
    }

    /** One job of a submit: {@code existing_state} is its state when it was found, null for a new one. */
    public record SubmittedJob(long id, Integer arrayIndex, String key, boolean existing, String existingState) {
    }

    public static One one(JsonJob job, String logs) {
        return new One(Json.SCHEMA_VERSION, true, job, logs, null);
    }

    /** One job with its environment, credential values masked unless {@code reveal}. */
    public static One one(JsonJob job, String logs, Map<String, String> environment, boolean reveal) {
        return new One(Json.SCHEMA_VERSION, true, job, logs, SecretNames.masked(environment, reveal));
    }

    /** A submit's answer: {@code first} is the first job as read after the insert (null if it could not be read). */
    public static Submitted submitted(dev.nvidb.queue.Submitted submitted, JsonJob first) {
        List<dev.nvidb.queue.Submitted.Cell> cells = submitted.cells();
        return new Submitted(Json.SCHEMA_VERSION, true, first, cells.get(0).existing(), submitted.group(),
                submitted.created(), cells.stream().map(cell -> new SubmittedJob(cell.id(), cell.arrayIndex(), cell.key(),
                        cell.existing(), cell.existingState())).toList());
    }

    /**
     * {@code job ls --json} written to {@code out} while the jobs are read, a page at a time: the
     * same document as {@link #many}, in memory bounded whatever the queue's history; {@code seen}
     * is told each job as it passes.
     */
    public static void stream(java.io.Writer out, dev.nvidb.queue.StatusReading reading,
                              dev.nvidb.queue.JobSelection query, java.util.function.Consumer<JobView> seen) {
        Json.JobsStream[] document = new Json.JobsStream[1];
        reading.eachJob(query, new dev.nvidb.queue.StatusReading.JobListing() {
            @Override
            public void count(int jobs) {
                document[0] = Json.jobsStream(out, jobs);
            }

            @Override
            public void job(JobView view) {
                seen.accept(view);
                document[0].job(JsonJob.of(view));
            }
        });
        document[0].close();
    }

    /** A submit's answer when the stored job could not be read: its id alone. */
    public static Map<String, Object> idOnly(long id) {
        Map<String, Object> job = new java.util.LinkedHashMap<>();
        job.put("id", id);
        Map<String, Object> document = new java.util.LinkedHashMap<>();
        document.put("schema_version", Json.SCHEMA_VERSION);
        document.put("ok", true);
        document.put("job", job);
        return document;
    }

    public static Many many(List<JsonJob> jobs) {
        return new Many(Json.SCHEMA_VERSION, true, jobs.size(), jobs);
    }
}
