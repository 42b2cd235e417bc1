package dev.nvidb.store;

import static dev.nvidb.store.Specs.T0;
import static dev.nvidb.store.Specs.at;
import static dev.nvidb.store.Specs.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.EventKind;
import dev.nvidb.model.JobState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writers on separate connections (as separate processes would be), racing on one queue.db. */
class ConcurrentWritersTest {

    @TempDir
    Path dir;

    private Path file;
    private ExecutorService executor;

    @BeforeEach
    void setUp() {
        file = dir.resolve("queue.db");
        Database.open(file).close();
        executor = Executors.newCachedThreadPool();
    }

    @AfterEach
    void tearDown() {
        executor.shutdownNow();
    }

    @Test
    void twoFinishersOfOneJobExactlyOneWins() throws Exception {
        for (int round = 0; round < 25; round++) {
            long id;
            try (Database database = Database.open(file)) {
                id = new JobStore(database).insert(spec("race-" + round), 0, null, T0);
                new JobTransitions(database).place(id, new Assignment("gpu-a", List.of(0),
                        List.of("GPU-aaaa"), 1, "token-" + round), "/j", at(1));
            }
            CyclicBarrier start = new CyclicBarrier(2);
            Future<Boolean> completes = executor.submit(finisher(start, id, JobState.COMPLETED, 0));
            Future<Boolean> fails = executor.submit(finisher(start, id, JobState.FAILED, 1));
            boolean completed = completes.get(30, TimeUnit.SECONDS);
            boolean failed = fails.get(30, TimeUnit.SECONDS);
            assertEquals(1, (completed ? 1 : 0) + (failed ? 1 : 0), "exactly one finisher wins in round " + round);
            try (Database database = Database.open(file)) {
                JobState state = new JobStore(database).getJob(id).job().state();
                assertEquals(completed ? JobState.COMPLETED : JobState.FAILED, state);
                List<String> finishes = new EventStore(database).listSince(0, id, 100).stream().map(Event::kind)
                        .filter(kind -> kind.equals("completed") || kind.equals("failed")).toList();
                assertEquals(List.of(state.key()), finishes, "one finish event");
            }
        }
    }

    @Test
    void eightWritersOfTwoHundredTransactionsEachNeverSeeALockedDatabase() throws Exception {
        int writers = 8;
        int writes = 200;
        CyclicBarrier start = new CyclicBarrier(writers);
        List<Future<Integer>> results = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            results.add(executor.submit(() -> {
                try (Database database = Database.open(file)) {
                    JobStore jobs = new JobStore(database);
                    MetaStore meta = new MetaStore(database);
                    start.await();
                    for (int i = 0; i < writes; i++) {
                        String name = "w" + writer + "-" + i;
                        // Read, then write: the pattern that fails with SQLITE_BUSY under a deferred BEGIN.
                        database.write("submit " + name, conn -> {
                            meta.get(conn, "writer-" + writer);
                            long id = jobs.insert(conn, spec(name), 0, null, T0);
                            meta.put(conn, "writer-" + writer, Long.toString(id));
                            return id;
                        });
                    }
                }
                return writes;
            }));
        }
        int total = 0;
        for (Future<Integer> result : results) {
            total += result.get(120, TimeUnit.SECONDS);
        }
        try (Database database = Database.open(file)) {
            assertEquals(total, new JobStore(database).listJobs(JobFilter.all()).size());
            assertEquals(total, new EventStore(database).listSince(0, null, 10 * total).size());
        }
    }

    @Test
    void aReaderPagingBySinceSeesEveryEventOnceAndInOrderWhileOthersAppend() throws Exception {
        int appenders = 4;
        int perAppender = 250;
        CyclicBarrier start = new CyclicBarrier(appenders + 1);
        List<Future<?>> writing = new ArrayList<>();
        for (int a = 0; a < appenders; a++) {
            String node = "node-" + a;
            writing.add(executor.submit(() -> {
                try (Database database = Database.open(file)) {
                    EventStore events = new EventStore(database);
                    start.await();
                    for (int i = 0; i < perAppender; i++) {
                        events.append(T0, null, node, EventKind.VERIFIED, Map.of("seq", i));
                    }
                }
                return null;
            }));
        }
        List<Event> seen = new ArrayList<>();
        try (Database database = Database.open(file)) {
            EventStore events = new EventStore(database);
            start.await();
            long cursor = 0;
            while (seen.size() < appenders * perAppender) {
                // Checked before the read: an empty page after every appender finished means the end.
                boolean appendersDone = writing.stream().allMatch(Future::isDone);
                List<Event> page = events.listSince(cursor, null, 7);
                seen.addAll(page);
                if (!page.isEmpty()) {
                    cursor = page.get(page.size() - 1).id();
                } else if (appendersDone) {
                    break;
                }
            }
            assertEquals(appenders * perAppender, seen.size(), "every event was seen");
            assertEquals(List.of(), events.listSince(cursor, null, 7));
        }
        for (Future<?> future : writing) {
            future.get(60, TimeUnit.SECONDS);
        }
        for (int i = 1; i < seen.size(); i++) {
            assertEquals(seen.get(i - 1).id() + 1, seen.get(i).id(), "ids follow one another with no gap or repeat");
        }
        for (int a = 0; a < appenders; a++) {
            String node = "node-" + a;
            List<Object> sequence = seen.stream().filter(event -> node.equals(event.node()))
                    .map(event -> event.detailMap().get("seq")).toList();
            assertEquals(perAppender, sequence.size());
            for (int i = 0; i < perAppender; i++) {
                assertEquals((long) i, sequence.get(i), node + " in order");
            }
        }
    }

    private Callable<Boolean> finisher(CyclicBarrier start, long id, JobState to, int exitCode) {
        return () -> {
            try (Database database = Database.open(file)) {
                JobTransitions transitions = new JobTransitions(database);
                start.await();
                return transitions.finish(id, new Expected(JobState.RUNNING, 1), to, exitCode, null, at(2));
            }
        };
    }
}
