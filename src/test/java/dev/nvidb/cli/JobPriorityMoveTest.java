package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code job priority ID --up N / --down N} through the command line and the database: the job
 * passes exactly N pending jobs in dispatch order, also when they share the default priority.
 */
class JobPriorityMoveTest {

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void threePendingJobsAtPriorityZero() throws Exception {
        env = CliRun.localQueue(home);
        for (String name : List.of("a", "b", "c")) {
            assertEquals(0, CliRun.run(env, "job", "submit", "--no-tick", "--gpus", "0", "-n", name, "--", "true")
                    .exitCode());
        }
    }

    @Test
    void upOnePassesExactlyOneJobAmongTies() throws Exception {
        CliRun moved = CliRun.run(env, "job", "priority", "3", "--up", "1", "--no-tick");
        assertEquals(0, moved.exitCode(), moved.stderr());
        assertEquals("1", moved.stdout().strip(), "the moved job's new priority");
        assertEquals(List.of("a", "c", "b"), dispatchOrder());
    }

    @Test
    void downOnePassesExactlyOneJobAmongTies() throws Exception {
        assertEquals(0, CliRun.run(env, "job", "priority", "1", "--down", "1", "--no-tick").exitCode());
        assertEquals(List.of("b", "a", "c"), dispatchOrder());
    }

    @Test
    void movesAddUp() throws Exception {
        assertEquals(0, CliRun.run(env, "job", "priority", "3", "--up", "1", "--no-tick").exitCode());
        assertEquals(0, CliRun.run(env, "job", "priority", "3", "--up", "1", "--no-tick").exitCode());
        assertEquals(List.of("c", "a", "b"), dispatchOrder());
        assertEquals(0, CliRun.run(env, "job", "priority", "3", "--down", "5", "--no-tick").exitCode());
        assertEquals(List.of("a", "b", "c"), dispatchOrder());
    }

    /** Pending jobs' names in dispatch order: priority descending, then id. */
    private List<String> dispatchOrder() throws Exception {
        CliRun ls = CliRun.run(env, "job", "ls", "--json", "--no-tick");
        assertEquals(0, ls.exitCode(), ls.stderr());
        List<JsonNode> jobs = new ArrayList<>();
        new ObjectMapper().readTree(ls.stdout()).get("jobs").forEach(jobs::add);
        jobs.sort(Comparator.comparingInt((JsonNode job) -> -job.get("priority").asInt())
                .thenComparingLong(job -> job.get("id").asLong()));
        return jobs.stream().map(job -> job.get("name").asText()).toList();
    }
}
