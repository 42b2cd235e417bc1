package dev.nvidb.store;

import static dev.nvidb.store.Specs.T0;
import static dev.nvidb.store.Specs.assignment;
import static dev.nvidb.store.Specs.at;
import static dev.nvidb.store.Specs.spec;
import static dev.nvidb.store.Specs.withRetries;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobTransitionsTest {

    private static final ProcessIdentity PROCESS = new ProcessIdentity(4242, 4242, 987_654L, "boot-1");

    @TempDir
    Path dir;

    private Database database;
    private JobStore jobs;
    private JobTransitions transitions;
    private JobAnnotations annotations;
    private ReapStore reaps;
    private EventStore events;

    @BeforeEach
    void open() {
        database = Database.open(dir.resolve("queue.db"));
        jobs = new JobStore(database);
        transitions = new JobTransitions(database);
        annotations = new JobAnnotations(database);
        reaps = new ReapStore(database);
        events = new EventStore(database);
    }

    @AfterEach
    void close() {
        database.close();
    }

    @Test
    void placeIsACompareAndSetOnPendingAndTheNextAttempt() {
        long id = jobs.insert(spec("train"), 0, null, T0);
        assertFalse(transitions.place(id, assignment("gpu-a", 2), "/j", at(1)), "attempt 2 before attempt 1");
        assertTrue(transitions.place(id, assignment("gpu-a", 1), "/j", at(1)));
        assertFalse(transitions.place(id, assignment("gpu-b", 1), "/j", at(2)), "a second placement of one attempt");

        StoredJob stored = jobs.getJob(id);
        assertEquals(JobState.RUNNING, stored.job().state());
        assertEquals(assignment("gpu-a", 1), stored.job().assignment());
        assertEquals(1, stored.job().attempt());
        assertEquals(at(1), stored.job().startedAt());
        assertEquals("/j", stored.jobDir());
        assertEquals(List.of("submitted", "placed"), kinds(id));
    }

    @Test
    void aHeldJobIsNotPlacedUntilReleased() {
        long id = jobs.insert(spec("train"), 0, null, T0);
        assertTrue(annotations.hold(id, "waiting for data", at(1)));
        assertTrue(jobs.getJob(id).job().held());
        assertFalse(transitions.place(id, assignment("gpu-a", 1), "/j", at(2)));
        assertTrue(annotations.release(id, at(3)));
        assertFalse(annotations.release(id, at(3)), "releasing twice changes nothing");
        assertTrue(transitions.place(id, assignment("gpu-a", 1), "/j", at(4)));
        assertFalse(annotations.hold(id, "too late", at(5)), "only a pending job can be held");
    }

    @Test
    void aLateReportAboutAnOlderAttemptChangesNothing() {
        long id = jobs.insert(withRetries("train", 1), 0, null, T0);
        assertTrue(transitions.place(id, assignment("gpu-a", 1), "/j1", at(1)));
        assertTrue(transitions.recordProcess(id, 1, PROCESS, at(1)));
        assertTrue(transitions.retry(id, 1, "process vanished on gpu-a", at(2)));
        assertTrue(transitions.place(id, assignment("gpu-b", 2), "/j2", at(3)));

        Expected stale = new Expected(JobState.RUNNING, 1);
        assertFalse(transitions.finish(id, stale, JobState.COMPLETED, 0, null, at(4)));
        assertFalse(annotations.setProgress(id, 1, "epoch 9 (attempt 1)"));
        assertFalse(transitions.recordProcess(id, 1, PROCESS, at(4)));
        Job job = jobs.getJob(id).job();
        assertEquals(JobState.RUNNING, job.state());
        assertEquals("gpu-b", job.assignment().node());
        assertNull(job.progress());

        assertTrue(transitions.finish(id, new Expected(JobState.RUNNING, 2), JobState.FAILED, 3, "exit 3", at(5)));
        assertFalse(transitions.finish(id, new Expected(JobState.RUNNING, 2), JobState.COMPLETED, 0, null, at(6)),
                "a duplicated report after the job finished");
        assertEquals(JobState.FAILED, jobs.getJob(id).job().state());
        assertEquals(3, jobs.getJob(id).job().exitCode());
    }

    @Test
    void retryStopsWhenTheRetriesAreUsedUp() {
        long id = jobs.insert(withRetries("train", 1), 0, null, T0);
        assertTrue(transitions.place(id, assignment("gpu-a", 1), "/j1", at(1)));
        assertTrue(transitions.retry(id, 1, "vanished", at(2)));
        assertTrue(transitions.place(id, assignment("gpu-a", 2), "/j2", at(3)));
        assertFalse(transitions.retry(id, 2, "vanished again", at(4)));
        assertTrue(transitions.finish(id, new Expected(JobState.RUNNING, 2), JobState.LOST, null, "vanished", at(4)));
        assertEquals(List.of(), reaps.list(null), "a vanished process needs no kill");
    }

    @Test
    void cancellingARunningJobOwesAKillThatOutlivesRequeueAndPurge() {
        long id = jobs.insert(spec("train"), 0, "keep me", T0);
        assertTrue(transitions.place(id, assignment("gpu-a", 1), "/jobs/1", at(1)));
        assertTrue(transitions.recordProcess(id, 1, PROCESS, at(1)));
        annotations.setProgress(id, 1, "epoch 3");
        assertTrue(transitions.cancel(id, new Expected(JobState.RUNNING, 1), "cancelled by ann", at(2)));
        assertFalse(transitions.cancel(id, new Expected(JobState.RUNNING, 1), "again", at(2)));

        List<PendingReap> owed = reaps.list("gpu-a");
        assertEquals(1, owed.size());
        assertEquals(new ReapTarget("gpu-a", PROCESS, id, 1, "token-gpu-a-1", "/jobs/1"), owed.get(0).target());
        assertEquals("cancelled", owed.get(0).reason());

        assertTrue(transitions.requeue(id, new Expected(JobState.CANCELLED, 1), null, at(3)));
        Job requeued = jobs.getJob(id).job();
        assertEquals(JobState.PENDING, requeued.state());
        assertEquals("keep me", requeued.note());
        assertNull(requeued.progress());
        assertNull(requeued.assignment());
        assertTrue(transitions.finish(id, new Expected(JobState.PENDING, 1), JobState.CANCELLED, null, null, at(4)));
        assertEquals(List.of(id), jobs.purge(Set.of(JobState.CANCELLED), at(5)));

        assertEquals(owed, reaps.list(null), "the kill is still owed after requeue and purge");
        assertTrue(reaps.recordAttempt(owed.get(0).id(), "node unreachable", at(6)));
        assertEquals(1, reaps.list(null).get(0).attempts());
        assertTrue(reaps.complete(owed.get(0).id(), at(7)));
        assertEquals(List.of(), reaps.list(null));
    }

    @Test
    void timeoutAndRequeueOfARunningJobOweAKillButAnObservedExitDoesNot() {
        long timedOut = jobs.insert(spec("a"), 0, null, T0);
        long requeued = jobs.insert(spec("b"), 0, null, T0);
        long exited = jobs.insert(spec("c"), 0, null, T0);
        for (long id : List.of(timedOut, requeued, exited)) {
            assertTrue(transitions.place(id, assignment("n" + id, 1), "/j", at(1)));
        }
        Expected running = new Expected(JobState.RUNNING, 1);
        assertTrue(transitions.finish(timedOut, running, JobState.TIMEOUT, null, "ran past 1h", at(2)));
        assertTrue(transitions.requeue(requeued, running, "requeued by ann", at(2)));
        assertTrue(transitions.finish(exited, running, JobState.COMPLETED, 0, null, at(2)));
        assertEquals(List.of("timeout", "requeued"), reaps.list(null).stream().map(PendingReap::reason).toList());
        assertThrows(IllegalArgumentException.class,
                () -> transitions.finish(exited, running, JobState.RUNNING, null, null, at(3)));
    }

    @Test
    void unverifiedJobsAreMarkedOnceAndClearedWhenTheNodeAnswers() {
        long id = jobs.insert(spec("train"), 0, null, T0);
        assertTrue(transitions.place(id, assignment("gpu-a", 1), "/j", at(1)));
        assertEquals(List.of(id), transitions.markUnverified("gpu-a", at(10)));
        assertEquals(List.of(), transitions.markUnverified("gpu-a", at(20)));
        assertEquals(at(10), jobs.getJob(id).unverifiedSince());
        assertEquals(List.of(id), transitions.markVerified("gpu-a", at(30)));
        assertNull(jobs.getJob(id).unverifiedSince());
        assertEquals(List.of("submitted", "placed", "unverified", "verified"), kinds(id));
    }

    @Test
    void annotationsKeepTheLargestMeasuredUseAndAppendNotesAtomically() {
        long id = jobs.insert(spec("train"), 0, null, T0);
        assertTrue(annotations.appendNote(id, "first"));
        assertTrue(annotations.appendNote(id, "second"));
        assertEquals("first\nsecond", jobs.getJob(id).job().note());
        assertTrue(annotations.setPriority(id, 7, at(1)));
        assertEquals(7, jobs.getJob(id).job().priority());
        assertTrue(transitions.place(id, assignment("gpu-a", 1), "/j", at(1)));
        assertTrue(annotations.recordMeasured(id, 1, 5000));
        assertTrue(annotations.recordMeasured(id, 1, 3000));
        assertEquals(5000L, jobs.getJob(id).measuredMb());
        assertTrue(annotations.setResult(id, "{\"loss\": 0.1}"));
        assertEquals("{\"loss\": 0.1}", jobs.getJob(id).job().result());
        assertThrows(dev.nvidb.error.StoreException.class, () -> annotations.setResult(id, "{not json"));
        assertFalse(annotations.setPriority(99, 1, at(2)));
    }

    private List<String> kinds(long jobId) {
        return events.listSince(0, jobId, 100).stream().map(Event::kind).toList();
    }

    @Test
    void aJobThatAlreadyEndedCannotFinishAgainWhateverTheCallerSaw() {
        long id = jobs.insert(spec("train"), 0, null, T0);
        assertTrue(transitions.cancel(id, new Expected(JobState.PENDING, 0), "cancelled by request", at(1)));
        Expected late = Expected.of(jobs.getJob(id).job());
        assertFalse(transitions.finish(id, late, JobState.FAILED, null, "unschedulable: too big", at(2)));
        assertEquals(JobState.CANCELLED, jobs.getJob(id).job().state());
        assertEquals("cancelled by request", jobs.getJob(id).job().lastError());
    }

    @Test
    void progressAndResultOfAnAttemptAreWrittenOnlyWhileThatAttemptRuns() {
        long id = jobs.insert(spec("train"), 0, null, T0);
        assertTrue(transitions.place(id, assignment("gpu-a", 1), "/j", at(1)));
        assertTrue(transitions.requeue(id, new Expected(JobState.RUNNING, 1), "requeued by request", at(2)));
        assertFalse(annotations.setProgress(id, 1, "epoch 9"), "attempt 1 no longer runs");
        boolean written = database.write("t", conn -> annotations.setAttemptResult(conn, id, 1, "{\"loss\":1}"));
        assertFalse(written, "no result for an attempt that no longer runs");
        assertNull(jobs.getJob(id).job().progress());
        assertNull(jobs.getJob(id).job().result());
    }
}
