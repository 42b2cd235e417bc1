package dev.nvidb.store;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.Dependency;
import dev.nvidb.model.JobSpec;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Small builders for store tests: job specs, assignments and a fixed clock. */
final class Specs {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private Specs() {
    }

    static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    static JobSpec spec(String name) {
        return new JobSpec(name, "python train.py", 1, 20_480, null, null, Map.of(), List.of(), null, 0,
                List.of(), "ann@lab");
    }

    static JobSpec withRetries(String name, int retries) {
        return new JobSpec(name, "python train.py", 1, 1024, null, null, Map.of(), List.of(), null, retries,
                List.of(), "ann@lab");
    }

    static JobSpec after(String name, Dependency... dependencies) {
        return new JobSpec(name, "true", 0, 0, null, null, Map.of(), List.of(dependencies), null, 0, List.of(), null);
    }

    static Assignment assignment(String node, int attempt) {
        return new Assignment(node, List.of(0), List.of("GPU-aaaa"), attempt, "token-" + node + "-" + attempt);
    }
}
