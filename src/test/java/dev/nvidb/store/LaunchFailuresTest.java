package dev.nvidb.store;

import static dev.nvidb.store.Specs.T0;
import static dev.nvidb.store.Specs.assignment;
import static dev.nvidb.store.Specs.at;
import static dev.nvidb.store.Specs.spec;
import static dev.nvidb.store.Specs.withRetries;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.JobState;
import dev.nvidb.model.JobStatus;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jobs.launch_failures}: failed launches in a row, counted by the transition, reset by a person or a retry. */
class LaunchFailuresTest {

    @TempDir
    Path dir;

    private Database database;
    private JobStore jobs;
    private JobTransitions transitions;
    private JobAnnotations annotations;
    private EventStore events;

    @BeforeEach
    void open() {
        database = Database.open(dir.resolve("queue.db"));
        jobs = new JobStore(database);
        transitions = new JobTransitions(database);
        annotations = new JobAnnotations(database);
        events = new EventStore(database);
    }

    @AfterEach
    void close() {
        database.close();
    }

    private boolean launchFails(long id, int attempt) {
        return database.write("fail", conn -> transitions.launchFailed(conn, id, attempt,
                "launch failed on gpu-a: No space left on device", at(attempt * 10L + 1)));
    }

    private int failures(long id) {
        return jobs.getJob(id).launchFailures();
    }

    @Test
    void eachFailedLaunchIsCountedAndTheJobGoesBackToPending() {
        long id = jobs.insert(spec("train"), 0, null, T0);
        assertEquals(0, failures(id));
        for (int attempt = 1; attempt <= 2; attempt++) {
            assertTrue(transitions.place(id, assignment("gpu-a", attempt), "/j" + attempt, at(attempt * 10L)));
            assertTrue(launchFails(id, attempt));
            assertEquals(attempt, failures(id));
            StoredJob job = jobs.getJob(id);
            assertEquals(JobStatus.PENDING, job.job().status());
            assertEquals("launch failed on gpu-a: No space left on device", job.job().lastError());
        }
        assertFalse(launchFails(id, 2), "a second report of the same failed launch");
        assertEquals(2, failures(id));
        assertEquals(List.of("submitted", "placed", "requeued", "placed", "requeued"),
                events.listSince(0, id, 100).stream().map(Event::kind).toList());
    }

    @Test
    void aPersonsRequeueOrReleaseAndARetryStartTheCountAgain() {
        long id = jobs.insert(withRetries("train", 5), 0, null, T0);
        assertTrue(transitions.place(id, assignment("gpu-a", 1), "/j1", at(10)));
        assertTrue(launchFails(id, 1));
        assertTrue(transitions.place(id, assignment("gpu-a", 2), "/j2", at(20)));
        assertTrue(transitions.retry(id, 2, "its process vanished", at(21)));
        assertEquals(0, failures(id), "a launch that ran and vanished breaks the run of failures");

        assertTrue(transitions.place(id, assignment("gpu-a", 3), "/j3", at(30)));
        assertTrue(launchFails(id, 3));
        assertTrue(transitions.place(id, assignment("gpu-a", 4), "/j4", at(40)));
        assertTrue(launchFails(id, 4));
        assertTrue(annotations.hold(id, "its launch failed twice", at(41)));
        assertEquals(2, failures(id));
        assertTrue(annotations.release(id, at(42)));
        assertEquals(0, failures(id), "releasing the hold is the person's requeue");

        assertTrue(transitions.place(id, assignment("gpu-a", 5), "/j5", at(50)));
        assertTrue(launchFails(id, 5));
        assertTrue(transitions.finish(id, new Expected(JobState.PENDING, 5), JobState.CANCELLED, null, "no", at(51)));
        assertEquals(1, failures(id));
        assertTrue(transitions.requeue(id, new Expected(JobState.CANCELLED, 5), "requeued by request", at(52)));
        assertEquals(0, failures(id));
    }
}
