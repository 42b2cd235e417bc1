package dev.nvidb.output;

import static dev.nvidb.output.QueueSamples.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.queue.JobView;
import dev.nvidb.queue.JobChange;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The job documents (docs/json.md, "Jobs"): built from constructed records and compared with
 * their golden files under src/test/resources/golden.
 */
class JobOutputTest {

    private static JobView view(long id) {
        return QueueSamples.jobs().stream().filter(job -> job.id() == id).findFirst().orElseThrow();
    }

    @Test
    void jobListMatchesGoldenFile() throws Exception {
        Golden.assertMatches("job-ls.json", Json.write(JsonJobs.many(QueueSamples.jsonJobs())));
    }

    @Test
    void aStreamedJobListIsTheSameDocumentByteForByte() {
        for (java.util.List<JsonJob> jobs : java.util.List.of(QueueSamples.jsonJobs(), java.util.List.<JsonJob>of())) {
            java.io.StringWriter out = new java.io.StringWriter();
            try (Json.JobsStream stream = Json.jobsStream(out, jobs.size())) {
                jobs.forEach(stream::job);
            }
            org.junit.jupiter.api.Assertions.assertEquals(Json.write(JsonJobs.many(jobs)), out.toString());
        }
    }

    @Test
    void jobShowWithLogsMatchesGoldenFile() throws Exception {
        Golden.assertMatches("job-show.json",
                Json.write(JsonJobs.one(QueueSamples.json(view(7)), "epoch 9/10 loss 0.121\nepoch 10/10 loss 0.118\n",
                        view(7).job().spec().environment(), false)));
    }

    @Test
    void submittedPendingJobMatchesGoldenFile() throws Exception {
        Golden.assertMatches("job-submit.json", Json.write(JsonJobs.one(QueueSamples.json(view(12)), null)));
    }

    @Test
    void pendingReasonIsOnlyOnPendingJobsAndHeldJobsSayWhy() {
        List<JsonJob> jobs = QueueSamples.jsonJobs();
        for (JsonJob job : jobs) {
            assertEquals(job.state().equals("pending"), job.pendingReason() != null, "job " + job.id());
        }
        JsonJob held = jobs.stream().filter(JsonJob::held).findFirst().orElseThrow();
        assertEquals("held: " + QueueSamples.HOLD, held.pendingReason());
        JsonJob unverified = jobs.stream().filter(job -> job.id() == 9).findFirst().orElseThrow();
        assertEquals("running", unverified.state());
        assertTrue(unverified.unverifiedSince() != null);
        assertNull(QueueSamples.json(view(10)).unverifiedSince());
    }

    @Test
    void environmentValuesNeverAppear() {
        String json = Json.write(QueueSamples.json(view(7)));
        assertTrue(json.contains("\"HF_TOKEN\""), json);
        assertTrue(!json.contains("secret"), "an --env value leaked into JSON: " + json);
    }

    @Test
    void jobWaitMatchesGoldenFile() throws Exception {
        Object waited = CliRecords.create("Waited", Json.SCHEMA_VERSION, false, false,
                List.of(QueueSamples.json(view(7)), QueueSamples.json(view(8))),
                new java.util.TreeMap<>(java.util.Map.of(7L, "epoch 3\n", 8L, "Traceback ...\n")));
        Golden.assertMatches("job-wait.json", Json.write(waited));
    }

    @Test
    void jobCancelMatchesGoldenFile() throws Exception {
        Object changed = CliRecords.create("JobsChanged", Json.SCHEMA_VERSION, false, List.of(
                new JobChange(9, true, "cancelled", "cancelled job 9"),
                new JobChange(7, false, "completed", "job 7 already ended: completed")));
        Golden.assertMatches("job-cancel.json", Json.write(changed));
    }

    @Test
    void smallJobDocumentsMatchGoldenFiles() throws Exception {
        Golden.assertMatches("job-priority.json",
                Json.write(CliRecords.create("Priority", Json.SCHEMA_VERSION, true, 12L, 5)));
        Golden.assertMatches("job-note.json", Json.write(CliRecords.create("Noted", Json.SCHEMA_VERSION,
                true, 7L, "baseline A, lr=1e-4\nloss plateaued at epoch 30")));
        Golden.assertMatches("job-result.json", Json.write(CliRecords.create("Result",
                Json.SCHEMA_VERSION, true, 7L, Json.parse("{\"accuracy\": 0.913, \"checkpoint\": \"runs/7/best.pt\"}"))));
        Golden.assertMatches("job-purge.json", Json.write(CliRecords.create("Purged",
                Json.SCHEMA_VERSION, true, List.of(7L, 8L))));
        Golden.assertMatches("job-logs.json", Json.write(CliRecords.create("Logs", Json.SCHEMA_VERSION,
                true, 7L, "stdout", "epoch 9/10 loss 0.121\nepoch 10/10 loss 0.118\n", 4096L)));
    }

    @Test
    void jobListTextMatchesGoldenFile() throws Exception {
        Golden.assertMatches("job-ls.txt", jobListText());
    }

    @Test
    void jobShowTextMatchesGoldenFile() throws Exception {
        Golden.assertMatches("job-show.txt", jobShowText());
    }

    @Test
    void jobTextFitsEightyColumns() {
        TextWidth.assertFits(80, jobListText());
        TextWidth.assertFits(80, jobShowText());
    }

    /** {@code job ls} at 80 columns, rows built as the command builds them. */
    static String jobListText() {
        return JobText.table(rows(QueueSamples.jobs()), 80);
    }

    static List<JobText.Row> rows(List<JobView> views) {
        return views.stream().map(view -> new JobText.Row(view.job(),
                JobText.info(view.job(), view.pendingReason(), view.unverifiedSince(), NOW),
                view.unverifiedSince() != null)).toList();
    }

    /** {@code job show} for a finished job with most fields set, then for the unverified one. */
    static String jobShowText() {
        JobView completed = view(7);
        JobView unverified = view(9);
        return JobDetailText.render(completed.job(), completed.pendingReason(), completed.unverifiedSince(), NOW)
                + "\n" + JobDetailText.render(unverified.job(), unverified.pendingReason(), unverified.unverifiedSince(),
                NOW);
    }
}
