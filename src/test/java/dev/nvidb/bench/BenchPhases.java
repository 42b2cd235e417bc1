package dev.nvidb.bench;

import dev.nvidb.model.JobState;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonJob;
import dev.nvidb.output.JsonJobs;
import dev.nvidb.store.Database;
import dev.nvidb.store.JobFilter;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.StoredJob;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Where a cold {@code job ls --no-tick --json} spends its time: in a fresh JVM (start it with
 * bin/nvidb's flags), times opening the database, reading every job, mapping them to their JSON
 * views and writing the document, then the same again in the same JVM (classes loaded, code
 * partly compiled). The first round minus the second is class loading and interpretation.
 * Usage: {@code BenchPhases DB_FILE [ROUNDS]}.
 */
public final class BenchPhases {

    private BenchPhases() {
    }

    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        for (int round = 1; round <= rounds; round++) {
            long t0 = System.nanoTime();
            try (Database database = Database.open(file)) {
                long t1 = System.nanoTime();
                List<StoredJob> jobs = new JobStore(database).listJobs(new JobFilter(Set.<JobState>of(), null, null));
                long t2 = System.nanoTime();
                List<JsonJob> views = jobs.stream()
                        .map(s -> JsonJob.of(s.job(), null, s.unverifiedSince(), Json.parse(s.job().result()), s.jobDir()))
                        .toList();
                long t3 = System.nanoTime();
                String text = Json.write(JsonJobs.many(views));
                long t4 = System.nanoTime();
                System.out.printf("round %d: open db %.0f ms, read %d jobs %.0f ms, map to views %.0f ms, "
                                + "write %d KiB of JSON %.0f ms, total %.0f ms%n", round, (t1 - t0) / 1e6, jobs.size(),
                        (t2 - t1) / 1e6, (t3 - t2) / 1e6, text.length() / 1024, (t4 - t3) / 1e6, (t4 - t0) / 1e6);
            }
        }
    }
}
