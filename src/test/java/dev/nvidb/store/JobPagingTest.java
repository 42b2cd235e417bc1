package dev.nvidb.store;

import static dev.nvidb.store.Specs.T0;
import static dev.nvidb.store.Specs.after;
import static dev.nvidb.store.Specs.at;
import static dev.nvidb.store.Specs.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.Dependency;
import dev.nvidb.model.JobState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link JobStore#eachJob} hands over exactly what {@link JobStore#listJobs} returns (same jobs,
 * same order, dependencies included) a page at a time, and {@link JobStore#countJobs} counts it,
 * across page boundaries and for every kind of filter (issue 12: {@code job ls --json} over a long
 * history in bounded memory).
 */
class JobPagingTest {

    @TempDir
    Path dir;

    @Test
    void pagedListingsEqualTheWholeListingForEveryFilter() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            JobStore jobs = new JobStore(database);
            JobTransitions transitions = new JobTransitions(database);
            for (int i = 1; i <= 1_203; i++) {
                long id = jobs.insert(i % 50 == 0 ? after("d-" + i, new Dependency(i - 1, true)) : spec("j-" + i),
                        0, null, at(i));
                if (i % 3 == 0) {
                    transitions.cancel(id, new Expected(JobState.PENDING, 0), "test", at(i));
                } else if (i % 7 == 0 && i % 50 != 0) {
                    String node = i % 2 == 0 ? "gpu-a" : "gpu-b";
                    transitions.place(id, new Assignment(node, List.of(0), List.of("GPU-" + node), 1, "token-" + id),
                            "~/.nvidb/jobs/" + id + "/1", T0);
                }
            }
            List<JobFilter> filters = new ArrayList<>(List.of(JobFilter.all(), JobFilter.active(),
                    JobFilter.inStates(JobState.CANCELLED), JobFilter.inStates(JobState.RUNNING).onNode("gpu-a"),
                    JobFilter.all().onNode("nowhere"), JobFilter.all().inGroup("no-such-group")));
            for (int limit : new int[] {0, 1, 499, 500, 501, 1_000, 5_000}) {
                filters.add(JobFilter.all().newest(limit));
                filters.add(JobFilter.inStates(JobState.PENDING).newest(limit));
            }
            for (JobFilter filter : filters) {
                List<StoredJob> whole = jobs.listJobs(filter);
                List<StoredJob> paged = new ArrayList<>();
                int counted = database.read("page", conn -> {
                    jobs.eachJob(conn, filter, paged::add);
                    return jobs.countJobs(conn, filter);
                });
                assertEquals(whole, paged, filter::toString);
                assertEquals(whole.size(), counted, filter::toString);
            }
            assertEquals(Set.copyOf(EnumSet.of(JobState.PENDING, JobState.RUNNING, JobState.CANCELLED)),
                    Set.copyOf(jobs.listJobs(JobFilter.all()).stream().map(job -> job.job().state()).toList()),
                    "the fixture has every state the filters pick");
        }
    }
}
