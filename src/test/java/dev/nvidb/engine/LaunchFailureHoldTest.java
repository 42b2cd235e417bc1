package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A launch that fails for sure sends the job back to pending; the second failure in a row holds
 * it (counted in {@code jobs.launch_failures}, not read back from its error), and the person's
 * {@code job requeue} releases it with the count started again. Over one SSH host whose job
 * root is a plain file, so every launch fails until the test removes it.
 */
class LaunchFailureHoldTest {

    private static final Duration LIMIT = Duration.ofSeconds(45);

    private SshHarness harness;
    private TestHost node;

    @TempDir
    Path work;

    @BeforeEach
    void startHost() {
        harness = new SshHarness();
        node = harness.addHost("gpu-f");
        FakeGpuState.create().gpu(0, "NVIDIA A100-SXM4-80GB", 81920).uuid(0, "GPU-f0").used(0, 0)
                .writeTo(node.gpuStateFile());
    }

    @AfterEach
    void stopHost() {
        harness.close();
    }

    @Test
    void theSecondFailedLaunchInARowHoldsTheJobUntilRequeued() throws Exception {
        Path blocked = node.home().resolve(".nvidb/jobs-blocked");
        Files.createDirectories(blocked.getParent());
        Files.writeString(blocked, "a file where the job root should be\n");
        QueueFixtureSsh client = new QueueFixtureSsh(harness, work, List.of("gpu-f"),
                "job_root: \"~/.nvidb/jobs-blocked\"");
        long id = client.submit("--", "true");

        JsonNode held = client.tickUntil(id, job -> job.get("held").asBoolean(), LIMIT);
        assertEquals("pending", held.get("state").asText());
        assertEquals(2, held.get("attempt").asInt(), "held after exactly two launches: " + held);
        assertTrue(held.get("last_error").asText().startsWith("launch failed on gpu-f: "), held.toString());
        assertTrue(held.get("pending_reason").asText().startsWith("held: its launch failed twice"), held.toString());
        assertEquals(List.of("launch_failed", "launch_failed"), alertKinds(client));

        client.tick();
        assertEquals(2, client.job(id).get("attempt").asInt(), "a held job is not placed again");

        Files.delete(blocked);
        client.run(0, "job", "requeue", String.valueOf(id));
        JsonNode done = client.tickUntil(id, job -> job.get("state").asText().equals("completed"), LIMIT);
        assertEquals(3, done.get("attempt").asInt());
    }

    /** The open alerts' kinds (with open alerts, {@code queue alerts} exits 1). */
    private static List<String> alertKinds(QueueFixtureSsh client) throws Exception {
        JsonNode alerts = new ObjectMapper().readTree(client.run(1, "queue", "alerts", "--json", "--no-tick").stdout())
                .get("alerts");
        return StreamSupport.stream(alerts.spliterator(), false).map(alert -> alert.get("kind").asText()).toList();
    }
}
