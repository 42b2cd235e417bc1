package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code job logs} and {@code job show --logs} over SSH, read through the node agent: the last
 * lines with the offset after them, reads from an offset, stderr, and a job with no output yet.
 */
class JobLogsOverSshTest {

    private static final Duration LIMIT = Duration.ofSeconds(45);
    private static SshHarness harness;

    @TempDir
    Path work;

    @BeforeAll
    static void startHost() {
        harness = new SshHarness();
        TestHost node = harness.addHost("gpu-g");
        FakeGpuState.create().gpu(0, "NVIDIA A100-SXM4-80GB", 81920).uuid(0, "GPU-g0").used(0, 0)
                .writeTo(node.gpuStateFile());
    }

    @AfterAll
    static void stopHost() {
        harness.close();
    }

    @Test
    void lastLinesOffsetsStderrAndShowReadTheJobsOutput() {
        QueueFixtureSsh client = new QueueFixtureSsh(harness, work, List.of("gpu-g"), "");
        long job = client.submit("--", "printf 'a\\nb\\nc\\n'; printf 'e1\\ne2\\n' >&2");
        client.tickUntil(job, j -> QueueFixtureSsh.state(j).equals("completed"), LIMIT);
        String id = String.valueOf(job);

        JsonNode last = client.json("job", "logs", id, "-n", "2", "--json", "--no-tick");
        JsonNode from = client.json("job", "logs", id, "--offset", "2", "--json", "--no-tick");
        JsonNode past = client.json("job", "logs", id, "--offset", "100", "--json", "--no-tick");
        JsonNode stderr = client.json("job", "logs", id, "--stderr", "-n", "1", "--json", "--no-tick");

        assertEquals("b\nc\n", last.get("text").asText());
        assertEquals(6, last.get("next_offset").asLong());
        assertEquals("b\nc\n", from.get("text").asText());
        assertEquals(6, from.get("next_offset").asLong());
        assertEquals("", past.get("text").asText());
        assertEquals(100, past.get("next_offset").asLong());
        assertEquals("stderr", stderr.get("stream").asText());
        assertEquals("e2\n", stderr.get("text").asText());
        assertEquals("a\nb\nc\n", client.run(0, "job", "logs", id, "--no-tick").stdout());
        String shown = client.run(0, "job", "show", id, "--logs", "1", "--no-tick").stdout();
        assertTrue(shown.endsWith("--- last 1 lines of stdout ---\nc\n"), shown);
    }

    @Test
    void aJobThatHasNotRunHasNoOutputAndSaysWhy() {
        QueueFixtureSsh client = new QueueFixtureSsh(harness, work, List.of("gpu-g"), "");
        long first = client.submit("--", "exec sleep 300");
        long waiting = client.submit("--after", String.valueOf(first), "--", "true");

        String stderr = client.run(2, "job", "logs", String.valueOf(waiting), "--no-tick").stderr();

        assertTrue(stderr.contains("job " + waiting + " has not run yet, so it has no output"), stderr);
        client.run(0, "job", "cancel", String.valueOf(first), String.valueOf(waiting));
        client.tickUntilStatus(status -> status.get("pending_reaps").asInt() == 0, LIMIT);
    }
}
