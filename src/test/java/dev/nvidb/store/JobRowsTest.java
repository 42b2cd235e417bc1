package dev.nvidb.store;

import static dev.nvidb.store.Specs.T0;
import static dev.nvidb.store.Specs.assignment;
import static dev.nvidb.store.Specs.at;
import static dev.nvidb.store.Specs.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.nvidb.error.StoreException;
import dev.nvidb.model.JobState;
import dev.nvidb.model.JobStatus;
import dev.nvidb.model.JobStatus.Ended;
import dev.nvidb.model.JobStatus.Outcome;
import dev.nvidb.model.JobStatus.Pending;
import dev.nvidb.model.JobStatus.Running;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store reads each state's row as its {@link JobStatus} variant, and refuses a row no variant can hold. */
class JobRowsTest {

    @TempDir
    Path dir;

    private Database database;
    private JobStore jobs;
    private JobTransitions transitions;
    private JobAnnotations annotations;

    @BeforeEach
    void open() {
        database = Database.open(dir.resolve("queue.db"));
        jobs = new JobStore(database);
        transitions = new JobTransitions(database);
        annotations = new JobAnnotations(database);
    }

    @AfterEach
    void close() {
        database.close();
    }

    private JobStatus status(long id) {
        return jobs.getJob(id).job().status();
    }

    @Test
    void eachStateReadsAsItsVariant() {
        long id = jobs.insert(spec("train"), 0, null, T0);
        assertEquals(JobStatus.PENDING, status(id));
        annotations.hold(id, "waiting for data", at(1));
        assertEquals(new Pending("waiting for data"), status(id));
        annotations.release(id, at(2));
        transitions.place(id, assignment("gpu-a", 1), "/j", at(3));
        assertEquals(new Running(assignment("gpu-a", 1), at(3)), status(id));
        transitions.finish(id, new Expected(JobState.RUNNING, 1), JobState.FAILED, 2, "exited with status 2", at(4));
        assertEquals(new Ended(Outcome.FAILED, at(4), 2, assignment("gpu-a", 1), at(3)), status(id));

        long never = jobs.insert(spec("eval"), 0, null, T0);
        transitions.cancel(never, new Expected(JobState.PENDING, 0), "cancelled by request", at(5));
        assertEquals(Ended.beforePlacement(Outcome.CANCELLED, at(5)), status(never));
    }

    @Test
    void finishRefusesAnExitCodeItsOutcomeCannotHaveAndWritesNothing() {
        long id = jobs.insert(spec("train"), 0, null, T0);
        transitions.place(id, assignment("gpu-a", 1), "/j", at(1));
        Expected running = new Expected(JobState.RUNNING, 1);
        assertThrows(IllegalArgumentException.class,
                () -> transitions.finish(id, running, JobState.COMPLETED, null, null, at(2)));
        assertThrows(IllegalArgumentException.class,
                () -> transitions.finish(id, running, JobState.TIMEOUT, 137, "ran past 1h", at(2)));
        assertEquals(new Running(assignment("gpu-a", 1), at(1)), status(id));
    }

    @Test
    void aRowNoStatusCanHoldIsOneClearError() {
        database.write("write by hand", conn -> {
            try (var statement = conn.createStatement()) {
                statement.executeUpdate("INSERT INTO jobs (id, name, command, gpus, vram_mb, state, created_at,"
                        + " finished_at, exit_code) VALUES (9, 'odd', 'true', 0, 0, 'cancelled', 1, 2, 137)");
            }
            return null;
        });
        StoreException error = assertThrows(StoreException.class, () -> jobs.getJob(9));
        assertEquals("job 9 in the queue database is inconsistent: a cancelled job has no exit code",
                error.getMessage());
    }
}
