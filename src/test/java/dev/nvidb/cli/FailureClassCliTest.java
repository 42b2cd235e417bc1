package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failure classes through real processes on this machine's queue: the agent sends the end of the
 * job's logs, the settle classifies it, and {@code job show} (text and JSON) and {@code job ls}
 * print it. CPU-only jobs, so no GPU is needed; an OOM message is an OOM whatever the job asked for.
 */
class FailureClassCliTest {

    @TempDir
    Path home;

    @Test
    void aJobThatPrintsCudaOutOfMemoryFailsAsOomAndOneKilledBySignalAsSignal() throws Exception {
        Map<String, String> env = CliRun.localQueue(home);
        CliRun oom = CliRun.run(env, "job", "submit", "--gpus", "0", "--json", "--wait", "--", "python3", "-c",
                "import sys; print('CUDA out of memory. Tried to allocate 2.00 GiB', file=sys.stderr); sys.exit(1)");
        assertEquals(1, oom.exitCode(), oom.stderr());
        CliRun killed = CliRun.run(env, "job", "submit", "--gpus", "0", "--json", "--wait", "--", "kill -9 $$");
        assertEquals(1, killed.exitCode(), killed.stderr());
        CliRun plain = CliRun.run(env, "job", "submit", "--gpus", "0", "--json", "--wait", "--", "exit 3");
        assertEquals(1, plain.exitCode(), plain.stderr());

        ObjectMapper json = new ObjectMapper();
        CliRun list = CliRun.run(env, "job", "ls", "--no-tick", "--json");
        JsonNode jobs = json.readTree(list.stdout()).path("jobs");
        Map<Long, JsonNode> byId = new java.util.HashMap<>();
        jobs.forEach(job -> byId.put(job.path("id").asLong(), job));
        long id = json.readTree(oom.stdout()).path("jobs").get(0).path("id").asLong();
        JsonNode killedJob = byId.get(json.readTree(killed.stdout()).path("jobs").get(0).path("id").asLong());
        assertEquals("oom", byId.get(id).path("failure_class").asText(), list.stdout());
        assertEquals("signal", killedJob.path("failure_class").asText(), list.stdout());
        assertEquals(137, killedJob.path("exit_code").asInt());
        assertEquals("exit_code", byId.get(json.readTree(plain.stdout()).path("jobs").get(0).path("id").asLong())
                .path("failure_class").asText(), list.stdout());

        CliRun show = CliRun.run(env, "job", "show", Long.toString(id), "--no-tick");
        assertTrue(show.stdout().contains("failure    oom"), show.stdout());
        assertTrue(show.stdout().contains("exited with status 1: out of memory (CUDA out of memory in its log)"),
                show.stdout());
        CliRun alerts = CliRun.run(env, "queue", "alerts", "--json");
        assertTrue(alerts.stdout().contains("(failure class: oom)"), alerts.stdout());
        assertTrue(alerts.stdout().contains("(failure class: signal)"), alerts.stdout());
    }
}
