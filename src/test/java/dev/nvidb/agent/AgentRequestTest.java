package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.error.NodeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The request line's JSON, and parsing of job parts a newer or older agent might send. */
class AgentRequestTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void rendersOneLineWithEveryField() throws Exception {
        WrapperProcess wrapper = new WrapperProcess(42, 42, 777, "boot", null);
        AgentRequest request = AgentRequest.probe("~/.nvidb/jobs")
                .withJobs(List.of(new JobQuery(1, 2, "tok", "~/.nvidb/jobs/1/2")))
                .withLaunches(List.of(new LaunchRequest(3, 1, "t3", "d3", "echo 'a'\nexit 0\n")))
                .withKills(List.of(KillRequest.of(4, "d4", wrapper, Duration.ofMillis(1500))))
                .withLogs(List.of(LogRead.lastLines(5, "d5", true, 40), LogRead.from(6, "d6", false, 123, 4096)))
                .withLogTailLines(5).withoutSnapshot();

        String line = request.toJson();
        JsonNode json = JSON.readTree(line);

        assertFalse(line.contains("\n"));
        assertEquals("~/.nvidb/jobs", json.get("job_root").asText());
        assertFalse(json.get("snapshot").asBoolean());
        assertEquals(5, json.get("log_tail_lines").asInt());
        assertEquals("{\"id\":1,\"attempt\":2,\"token\":\"tok\",\"dir\":\"~/.nvidb/jobs/1/2\"}",
                json.get("jobs").get(0).toString());
        assertEquals("echo 'a'\nexit 0\n", json.get("launch").get(0).get("script").asText());
        assertEquals("{\"id\":4,\"dir\":\"d4\",\"pid\":42,\"start_ticks\":777,\"boot_id\":\"boot\",\"grace_s\":1.5}",
                json.get("kill").get(0).toString());
        assertEquals("{\"id\":5,\"dir\":\"d5\",\"stream\":\"stderr\",\"lines\":40,\"max_bytes\":1048576}",
                json.get("logs").get(0).toString());
        assertEquals("{\"id\":6,\"dir\":\"d6\",\"stream\":\"stdout\",\"lines\":0,\"max_bytes\":4096,\"offset\":123}",
                json.get("logs").get(1).toString());
        assertEquals("~/x/9/1", JobQuery.directory("~/x/", 9, 1));
    }

    @Test
    void unknownStatusesBecomeErrorsAndMissingFieldsNull() {
        String reply = "{\"schema_version\":1,\"source\":\"none\",\"gpus\":[],"
                + "\"jobs\":[{\"id\":1,\"attempt\":1,\"status\":\"zombie\"},{\"id\":2,\"status\":\"exited\","
                + "\"exit_code\":0,\"finished_at\":1764480000.25,\"result\":{\"a\":[1]}}],"
                + "\"launches\":[{\"id\":3,\"status\":\"failed\",\"error\":\"No space left on device\"}],"
                + "\"kills\":[{\"id\":4,\"status\":\"later\"}],\"sessions\":{\"10\":{\"sid\":9,\"pgid\":8},\"x\":{}}}";

        ProbeReply parsed = AgentReplyParser.parseReply("n", reply.getBytes(StandardCharsets.UTF_8), new byte[0]);

        assertTrue(parsed.agentAnswered());
        JobReport odd = parsed.findJob(1).orElseThrow();
        assertEquals(JobReport.Status.ERROR, odd.status());
        assertEquals("the node agent answered status 'zombie'", odd.reason());
        JobReport done = parsed.findJob(2).orElseThrow();
        assertEquals("2025-11-30T05:20:00.250Z", done.finishedAt().toString());
        assertEquals("{\"a\":[1]}", done.result());
        assertNull(done.wrapper());
        assertEquals("No space left on device", parsed.findLaunch(3).orElseThrow().error());
        assertEquals(KillReport.Outcome.ERROR, parsed.findKill(4).orElseThrow().outcome());
        assertEquals(new ProcessSession(9, 8), parsed.sessions().get(10L));
        assertEquals(1, parsed.sessions().size());
    }

    @Test
    void logChunksAreDecodedAndBytesThatAreNotBase64AreRefused() {
        String reply = "{\"schema_version\":1,\"source\":\"none\",\"gpus\":[],\"logs\":["
                + "{\"id\":1,\"status\":\"ok\",\"offset\":10,\"next_offset\":13,\"data\":\"/wAK\"},"
                + "{\"id\":2,\"status\":\"missing\",\"offset\":0,\"next_offset\":0,\"data\":\"\",\"reason\":\"no log\"},"
                + "{\"id\":3,\"status\":\"error\",\"error\":\"Permission denied\"}]}";

        ProbeReply parsed = AgentReplyParser.parseReply("n", reply.getBytes(StandardCharsets.UTF_8), new byte[0]);

        LogChunk ok = parsed.findLog(1).orElseThrow();
        assertEquals(List.of((byte) 0xff, (byte) 0, (byte) '\n'), List.of(ok.bytes()[0], ok.bytes()[1], ok.bytes()[2]));
        assertEquals(10, ok.offset());
        assertEquals(13, ok.nextOffset());
        assertEquals(LogChunk.Status.MISSING, parsed.findLog(2).orElseThrow().status());
        assertEquals("no log", parsed.findLog(2).orElseThrow().reason());
        assertEquals("Permission denied", parsed.findLog(3).orElseThrow().reason());
        String bad = reply.replace("/wAK", "not base64!");
        NodeException refused = assertThrows(NodeException.class,
                () -> AgentReplyParser.parseReply("n", bad.getBytes(StandardCharsets.UTF_8), new byte[0]));
        assertEquals("n: the node agent sent log bytes that are not base64", refused.getMessage());
    }

    @Test
    void nvidiaSmiFallbackAnswersNoJobs() {
        String csv = AgentScript.SMI_MARKER + "\n#hostname n\n#no-nvidia-smi\n";

        ProbeReply parsed = AgentReplyParser.parseReply("n", csv.getBytes(StandardCharsets.UTF_8), new byte[0]);

        assertFalse(parsed.agentAnswered());
        assertTrue(parsed.jobs().isEmpty());
    }
}
