package dev.nvidb.store;

import static dev.nvidb.store.Specs.T0;
import static dev.nvidb.store.Specs.after;
import static dev.nvidb.store.Specs.at;
import static dev.nvidb.store.Specs.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.UsageException;
import dev.nvidb.model.Dependency;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import dev.nvidb.model.JobState;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobStoreTest {

    @TempDir
    Path dir;

    private Database database;
    private JobStore jobs;
    private JobTransitions transitions;

    @BeforeEach
    void open() {
        database = Database.open(dir.resolve("queue.db"));
        jobs = new JobStore(database);
        transitions = new JobTransitions(database);
    }

    @AfterEach
    void close() {
        database.close();
    }

    @Test
    void keepsEveryPartOfTheSpecExactly() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("ZED", "last \"quoted\" $(not run) `x`; rm -rf /");
        env.put("ALPHA", "line one\nline two\tü 日本 \u0001");
        long first = jobs.insert(spec("first"), 0, null, T0);
        JobSpec spec = new JobSpec("nämé's job", "echo 'hi' && python -c \"print(1)\"", 2, 40_960, "gpu-a",
                "~/x y", env, List.of(new Dependency(first, true)), 3600L, 2, List.of("sweep", "lr=0.1"), "ann@lab");
        long id = jobs.insert(spec, 5, "a note", at(1));

        StoredJob stored = jobs.getJob(id);
        Job job = stored.job();
        assertEquals(spec, job.spec());
        assertEquals(List.of("ZED", "ALPHA"), List.copyOf(job.spec().environment().keySet()));
        assertEquals(JobState.PENDING, job.state());
        assertEquals(5, job.priority());
        assertEquals(at(1), job.createdAt());
        assertEquals("a note", job.note());
        assertEquals(0, job.attempt());
        assertNull(job.assignment());
        assertNull(stored.process());
    }

    @Test
    void refusesADependencyOnAJobThatDoesNotExistAndStoresNothing() {
        UsageException error = assertThrows(UsageException.class,
                () -> jobs.insert(after("orphan", new Dependency(99, true)), 0, null, T0));
        assertEquals("job 99 does not exist", error.getMessage());
        assertEquals(List.of(), jobs.listJobs(JobFilter.all()));
        assertEquals(List.of(), new EventStore(database).listSince(0, null, 10));
    }

    @Test
    void getJobOfAnUnknownIdIsAUsageError() {
        assertEquals("no job 42", assertThrows(UsageException.class, () -> jobs.getJob(42)).getMessage());
        assertTrue(jobs.findJob(42).isEmpty());
    }

    @Test
    void listsByStateAndNodeInIdOrderAndKeepsTheNewestWhenLimited() {
        long a = jobs.insert(spec("a"), 0, null, T0);
        long b = jobs.insert(spec("b"), 0, null, T0);
        long c = jobs.insert(spec("c"), 0, null, T0);
        long d = jobs.insert(after("d", new Dependency(a, false), new Dependency(c, true)), 0, null, T0);
        assertTrue(transitions.place(b, Specs.assignment("gpu-a", 1), "/jobs/b", at(1)));
        assertTrue(transitions.place(c, Specs.assignment("gpu-b", 1), "/jobs/c", at(1)));

        assertEquals(List.of(a, b, c, d), ids(JobFilter.all()));
        assertEquals(List.of(a, d), ids(JobFilter.inStates(JobState.PENDING)));
        assertEquals(List.of(b, c), ids(JobFilter.inStates(JobState.RUNNING)));
        assertEquals(List.of(c), ids(JobFilter.active().onNode("gpu-b")));
        assertEquals(List.of(c, d), ids(JobFilter.all().newest(2)));
        assertEquals(List.of(new Dependency(a, false), new Dependency(c, true)),
                jobs.listJobs(JobFilter.inStates(JobState.PENDING)).get(1).job().spec().dependencies());
        assertEquals(Map.of(a, JobState.PENDING, c, JobState.RUNNING),
                database.read("read", conn -> jobs.statesOf(conn, List.of(a, c, 77L))));
    }

    @Test
    void purgeRemovesFinishedJobsButNotOnesAnUnfinishedJobWaitsOn() {
        long done = jobs.insert(spec("done"), 0, null, T0);
        long needed = jobs.insert(spec("needed"), 0, null, T0);
        long waiting = jobs.insert(after("waiting", new Dependency(needed, true)), 0, null, T0);
        for (long id : List.of(done, needed)) {
            assertTrue(transitions.finish(id, new Expected(JobState.PENDING, 0), JobState.FAILED, null, "no GPU", at(1)));
        }

        assertThrows(IllegalArgumentException.class, () -> jobs.purge(Set.of(JobState.RUNNING), at(2)));
        assertEquals(List.of(done), jobs.purge(Set.of(JobState.FAILED, JobState.COMPLETED), at(2)));
        assertEquals(List.of(needed, waiting), ids(JobFilter.all()));
        assertEquals("purged", last(new EventStore(database).listSince(0, null, 100)).kind());
    }

    private List<Long> ids(JobFilter filter) {
        return jobs.listJobs(filter).stream().map(StoredJob::id).toList();
    }

    private static Event last(List<Event> events) {
        return events.get(events.size() - 1);
    }
}
