package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Idempotent submits ({@code --key}, {@code --op-id}), groups and arrays through the command
 * line, in-process against one queue.db (no ticks: what is stored is what is checked).
 */
class SweepsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void queue() throws Exception {
        env = CliRun.localQueue(home);
    }

    private CliRun run(String... args) {
        return CliRun.run(env, args);
    }

    private JsonNode json(CliRun run) throws Exception {
        return JSON.readTree(run.stdout());
    }

    private int jobCount() throws Exception {
        return json(run("job", "ls", "--no-tick", "--json")).get("count").asInt();
    }

    @Test
    void aKeyHeldByALiveOrCompletedJobReturnsItAndAFailedOrCancelledOneIsSubmittedAgain() throws Exception {
        CliRun first = run("job", "submit", "--no-tick", "--gpus", "0", "--key", "lr-0.1", "--", "train");
        assertEquals(0, first.exitCode(), first.stderr());
        CliRun again = run("job", "submit", "--no-tick", "--gpus", "0", "--key", "lr-0.1", "--", "train");
        assertEquals(0, again.exitCode(), again.stderr());
        assertEquals(first.stdout(), again.stdout());
        assertTrue(again.stderr().contains("job 1 already has key lr-0.1 (pending)"), again.stderr());
        JsonNode answer = json(run("job", "submit", "--no-tick", "--json", "--gpus", "0", "--key", "lr-0.1", "--", "x"));
        assertTrue(answer.get("existing").asBoolean());
        assertEquals(1, answer.get("job").get("id").asLong());
        assertEquals("lr-0.1", answer.get("job").get("key").asText());
        assertEquals(1, jobCount());

        assertEquals(0, run("job", "cancel", "--no-tick", "1").exitCode());
        CliRun afterCancel = run("job", "submit", "--no-tick", "--gpus", "0", "--key", "lr-0.1", "--", "train");
        assertEquals("2", afterCancel.stdout().strip());
        assertEquals(2, jobCount());
    }

    @Test
    void concurrentSubmitsOfOneKeyStoreOneJob() throws Exception {
        Set<String> ids = concurrently(8, i -> run("job", "submit", "--no-tick", "--gpus", "0", "--key", "k",
                "--", "echo " + i));
        assertEquals(1, ids.size(), ids.toString());
        assertEquals(1, jobCount());
    }

    @Test
    void concurrentRetriesOfOneOperationStoreOneJob() throws Exception {
        Set<String> ids = concurrently(8, i -> run("job", "submit", "--no-tick", "--gpus", "0", "--op-id", "op-1",
                "--", "echo same"));
        assertEquals(1, ids.size(), ids.toString());
        assertEquals(1, jobCount());
    }

    /** A --script file is part of the request: the same path with other contents is another request. */
    @Test
    void aScriptEditedBetweenTwoRunsOfOneOperationIsAnotherRequest() throws Exception {
        java.nio.file.Path script = home.resolve("train.sh");
        java.nio.file.Files.writeString(script, "echo one\n");
        CliRun first = run("job", "submit", "--no-tick", "--gpus", "0", "--op-id", "S1", "--script", script.toString());
        assertEquals(0, first.exitCode(), first.stderr());
        CliRun retry = run("job", "submit", "--no-tick", "--gpus", "0", "--op-id", "S1", "--script", script.toString());
        assertEquals(first.stdout(), retry.stdout(), "the same file: the first answer again");
        java.nio.file.Files.writeString(script, "echo two\n");
        CliRun edited = run("job", "submit", "--no-tick", "--gpus", "0", "--op-id", "S1", "--script", script.toString());
        assertEquals(2, edited.exitCode(), edited.stderr());
        assertTrue(edited.stderr().contains("--op-id S1 was already used for another request"), edited.stderr());
        assertEquals(1, jobCount());
    }

    @Test
    void anOperationRetriedGetsItsFirstAnswerAndAnotherRequestUnderItsIdIsRefused() throws Exception {
        CliRun first = run("job", "submit", "--no-tick", "--json", "--gpus", "0", "--op-id", "A1", "--", "echo", "hi");
        assertEquals(0, first.exitCode(), first.stderr());
        CliRun retry = run("job", "submit", "--no-tick", "--json", "--gpus", "0", "--op-id", "A1", "--", "echo", "hi");
        assertEquals(0, retry.exitCode(), retry.stderr());
        assertEquals(first.stdout(), retry.stdout());
        assertTrue(retry.stderr().contains("operation A1 was already done"), retry.stderr());
        assertEquals(1, jobCount());

        CliRun other = run("job", "submit", "--no-tick", "--json", "--gpus", "0", "--op-id", "A1", "--", "echo", "bye");
        assertEquals(2, other.exitCode(), other.stderr());
        assertTrue(other.stderr().startsWith("nvidb: --op-id A1 was already used for another request"), other.stderr());
        assertEquals("usage", json(other).get("error").get("type").asText());
        assertEquals(1, jobCount());

        CliRun cancel = run("job", "cancel", "--no-tick", "--op-id", "C1", "1");
        CliRun cancelAgain = run("job", "cancel", "--no-tick", "--op-id", "C1", "1");
        assertEquals(0, cancel.exitCode(), cancel.stderr());
        assertEquals(0, cancelAgain.exitCode(), "the first answer, not 'already ended': " + cancelAgain.stderr());
    }

    @Test
    void aUsageErrorFreesTheOperationIdForTheCorrectedRequest() throws Exception {
        assertEquals(2, run("job", "submit", "--no-tick", "--gpus", "0", "--op-id", "B", "--after", "99", "--", "x")
                .exitCode());
        CliRun fixed = run("job", "submit", "--no-tick", "--gpus", "0", "--op-id", "B", "--", "x");
        assertEquals(0, fixed.exitCode(), fixed.stderr());
    }

    @Test
    void anArrayIsOneGroupOfIndexedJobsWithItsCap() throws Exception {
        CliRun array = run("job", "submit", "--no-tick", "--json", "--gpus", "0", "--array", "0-9%3", "--name", "sw",
                "--", "python train.py --seed {}");
        assertEquals(0, array.exitCode(), array.stderr());
        JsonNode answer = json(array);
        assertEquals(10, answer.get("created").asInt());
        assertEquals("sw", answer.get("group").asText());
        JsonNode jobs = json(run("job", "ls", "--no-tick", "--json", "--group", "sw")).get("jobs");
        assertEquals(10, jobs.size());
        for (int i = 0; i < 10; i++) {
            assertEquals("python train.py --seed " + i, jobs.get(i).get("command").asText());
            assertEquals(i, jobs.get(i).get("array_index").asInt());
            assertEquals("sw[" + i + "]", jobs.get(i).get("name").asText());
        }
        JsonNode group = json(run("queue", "groups", "--no-tick", "--json")).get("groups").get(0);
        assertEquals("sw", group.get("name").asText());
        assertEquals(10, group.get("total").asInt());
        assertEquals(10, group.get("counts").get("pending").asInt());
        assertEquals(3, group.get("max_running").asInt());
        assertEquals(false, group.get("held").asBoolean());

        CliRun cancel = run("job", "cancel", "--no-tick", "--group", "sw");
        assertEquals(0, cancel.exitCode(), cancel.stderr());
        assertEquals(10, json(run("queue", "groups", "--no-tick", "--json")).get("groups").get(0).get("counts")
                .get("cancelled").asInt());
    }

    @Test
    void aSweepReRunSubmitsOnlyTheCellsWithoutALiveOrCompletedJob() throws Exception {
        assertEquals(0, run("job", "submit", "--no-tick", "--gpus", "0", "--array", "0-3", "--key", "sweep", "--",
                "echo {}").exitCode());
        assertEquals(0, run("job", "cancel", "--no-tick", "2").exitCode());
        JsonNode rerun = json(run("job", "submit", "--no-tick", "--json", "--gpus", "0", "--array", "0-4", "--key",
                "sweep", "--", "echo {}"));
        assertEquals(2, rerun.get("created").asInt(), rerun.toString());
        List<Long> created = new ArrayList<>();
        rerun.get("jobs").forEach(job -> {
            if (!job.get("existing").asBoolean()) {
                created.add(job.get("array_index").asLong());
            }
        });
        assertEquals(List.of(1L, 4L), created, "cell 1 (job 2 was cancelled) and the new cell 4");
        assertEquals(6, jobCount());
    }

    /** A 1,000-cell array is one command and one transaction: every cell stored, one id per line. (Its speed is bench/array-submit.sh's.) */
    @Test
    void aThousandCellArrayIsStoredByOneCommand() throws Exception {
        CliRun array = run("job", "submit", "--no-tick", "--gpus", "0", "--array", "0-999%8", "--", "echo {}");
        assertEquals(0, array.exitCode(), array.stderr());
        assertEquals(1000, array.stdout().lines().count());
        assertEquals(1000, jobCount());
    }

    @Test
    void nvidbGroupPutsASubmitInTheGroup() throws Exception {
        Map<String, String> withGroup = new java.util.HashMap<>(env);
        withGroup.put("NVIDB_GROUP", "eval");
        assertEquals(0, CliRun.run(withGroup, "job", "submit", "--no-tick", "--gpus", "0", "--", "x").exitCode());
        assertEquals("eval", json(run("job", "show", "--no-tick", "--json", "1")).get("job").get("group").asText());
    }

    @Test
    void scriptDirectivesActAsOptionsAndTheCommandLineWins() throws Exception {
        Path script = home.resolve("run.sh");
        Files.writeString(script, "#!/bin/bash\n#nvidb --gpus=0 --name=from-script\n#nvidb --vram=2G\necho hi\n");
        assertEquals(0, run("job", "submit", "--no-tick", "--script", script.toString()).exitCode());
        assertEquals(0, run("job", "submit", "--no-tick", "--name", "typed", "--script", script.toString()).exitCode());
        JsonNode jobs = json(run("job", "ls", "--no-tick", "--json")).get("jobs");
        assertEquals("from-script", jobs.get(0).get("name").asText());
        assertEquals(0, jobs.get(0).get("gpus").asInt());
        assertEquals(2048, jobs.get(0).get("vram_mb").asInt());
        assertEquals("typed", jobs.get(1).get("name").asText());

        Files.writeString(script, "#nvidb --gpus=two\necho hi\n");
        CliRun bad = run("job", "submit", "--no-tick", "--script", script.toString());
        assertEquals(2, bad.exitCode());
        assertTrue(bad.stderr().startsWith("nvidb: --script " + script + " line 1: --gpus two is not a whole number"),
                bad.stderr());
        assertEquals(2, jobCount());
    }

    private interface Submit {
        CliRun run(int index);
    }

    private static Set<String> concurrently(int count, Submit submit) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(count);
        try {
            List<Future<CliRun>> runs = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                runs.add(pool.submit(() -> submit.run(index)));
            }
            Set<String> ids = new HashSet<>();
            for (Future<CliRun> run : runs) {
                CliRun done = run.get();
                assertEquals(0, done.exitCode(), done.stderr());
                ids.add(done.stdout().strip());
            }
            return ids;
        } finally {
            pool.shutdownNow();
        }
    }
}
