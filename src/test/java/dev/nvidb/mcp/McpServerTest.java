package dev.nvidb.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.cli.Cli;
import dev.nvidb.cli.Context;
import dev.nvidb.cli.Streams;
import dev.nvidb.remote.TerminalControl;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nvidb mcp} run in-process (through the CLI, as {@code bin/nvidb mcp} runs it) and driven
 * by the SDK's own client over a pair of pipes standing for stdin and stdout, against a real
 * queue database and this machine as the node: real jobs run, real logs are read.
 */
class McpServerTest {

    private static final McpJsonMapper MAPPER = McpJsonDefaults.getMapper();

    @TempDir
    Path home;

    private final BytePipe stdin = new BytePipe();
    private final BytePipe stdout = new BytePipe();
    private final StringWriter contextOut = new StringWriter();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final AtomicInteger exitCode = new AtomicInteger(-1);
    private Thread server;
    private StreamClientTransport transport;
    private McpSyncClient client;

    @BeforeEach
    void start() throws Exception {
        Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(home.resolve(".nvidb/queue.yml"),
                "queue:\n  local_node_name: here\n  tick_min_interval: 0\n  max_cpu_jobs_per_node: 8\n");
        Map<String, String> env = new HashMap<>(Map.of("HOME", home.toString(), "NVIDB_HOME",
                home.resolve(".nvidb").toString(), "PATH", "/usr/local/bin:/usr/bin:/bin", "USER", "agent"));
        PrintWriter err = new PrintWriter(new java.io.OutputStreamWriter(stderr, java.nio.charset.StandardCharsets.UTF_8), true);
        Context context = new Context(env, new PrintWriter(contextOut, true), err, false,
                new Streams(stdin.in(), stdout.out(), stderr, TerminalControl.NONE));
        server = new Thread(() -> exitCode.set(Cli.run(context, "mcp")), "nvidb-mcp");
        server.start();
        transport = new StreamClientTransport(stdout.in(), stdin.out(), MAPPER);
        client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120)).build();
        client.initialize();
    }

    @AfterEach
    void stop() throws Exception {
        if (server.isAlive()) {
            stdin.out().close();
            server.join(60_000);
        }
    }

    @Test
    void everyToolHasASchemaADescriptionAndTheRightAnnotations() {
        List<McpSchema.Tool> tools = client.listTools().tools();
        Set<String> names = new TreeSet<>();
        tools.forEach(tool -> names.add(tool.name()));
        assertEquals(new TreeSet<>(List.of("submit", "status", "list_jobs", "show_job", "logs", "wait", "cancel",
                "requeue", "why", "result", "nodes", "groups", "alerts", "ack", "doctor")), names);
        for (McpSchema.Tool tool : tools) {
            assertEquals("object", tool.inputSchema().get("type"), tool.name());
            assertEquals(Boolean.FALSE, tool.inputSchema().get("additionalProperties"), tool.name());
            assertTrue(tool.description().length() > 80, tool.name() + ": " + tool.description());
            assertNotNull(tool.annotations(), tool.name());
            assertEquals(Boolean.FALSE, tool.annotations().openWorldHint(), tool.name());
        }
        Map<String, McpSchema.ToolAnnotations> hints = new HashMap<>();
        tools.forEach(tool -> hints.put(tool.name(), tool.annotations()));
        for (String read : List.of("status", "list_jobs", "show_job", "logs", "wait", "why", "result", "nodes",
                "groups", "alerts", "doctor")) {
            assertEquals(List.of(true, false, true), flags(hints.get(read)), read);
        }
        assertEquals(List.of(false, false, false), flags(hints.get("submit")));
        assertEquals(List.of(false, true, true), flags(hints.get("cancel")));
        assertEquals(List.of(false, true, false), flags(hints.get("requeue")));
        assertEquals(List.of(false, false, true), flags(hints.get("ack")));
        McpSchema.Tool submit = tools.stream().filter(tool -> tool.name().equals("submit")).findFirst().orElseThrow();
        assertEquals(List.of("command"), submit.inputSchema().get("required"));
        assertTrue(((Map<?, ?>) submit.inputSchema().get("properties")).keySet().containsAll(List.of("op_id", "key", "group", "array")));
    }

    private static List<Boolean> flags(McpSchema.ToolAnnotations annotations) {
        return List.of(annotations.readOnlyHint(), annotations.destructiveHint(), annotations.idempotentHint());
    }

    /**
     * The agent's cycle: submit a sweep under an op id, retry it (same answer, no new jobs), wait
     * (timing out while the cells are held, then resuming to the end), read logs and results.
     */
    @Test
    void submitRetryWaitLogsAndResults() throws Exception {
        Path release = home.resolve("release");
        Map<String, Object> sweep = new LinkedHashMap<>();
        sweep.put("command", "while [ ! -e '" + release + "' ]; do sleep 0.05; done; echo cell {};"
                + " echo '{\"score\": {}}' > \"$NVIDB_JOB_DIR/result.json\"");
        sweep.put("gpus", 0);
        sweep.put("array", "0-2");
        sweep.put("key", "seed");
        sweep.put("group", "seeds");
        sweep.put("op_id", "7f3c2a1e-sweep");
        Map<String, Object> first = ok("submit", sweep);
        assertEquals(3, number(first.get("created")));
        assertEquals("seeds", first.get("group"));
        List<Long> ids = ((List<?>) first.get("jobs")).stream().map(job -> number(((Map<?, ?>) job).get("id"))).toList();
        assertEquals(3, ids.size());

        McpSchema.CallToolResult retry = client.callTool(request("submit", sweep));
        assertFalse(retry.isError());
        assertEquals(first, retry.structuredContent(), "a retry answers the first call's document");
        assertEquals(Boolean.TRUE, retry.meta().get("nvidb/replayed"));
        assertEquals(3, number(ok("list_jobs", Map.of("group", "seeds")).get("count")), "the retry stored nothing");

        Map<String, Object> other = new LinkedHashMap<>(sweep);
        other.put("array", "0-3");
        assertEquals("usage", errorType(client.callTool(request("submit", other))));

        Map<String, Object> held = ok("wait", Map.of("ids", ids, "timeout_s", 0.2));
        assertEquals(true, held.get("timed_out"), "the cells cannot end before the release file exists");
        assertEquals(false, held.get("ok"));

        Files.writeString(release, "");
        Map<String, Object> waited = held;
        for (int round = 0; round < 20 && Boolean.TRUE.equals(waited.get("timed_out")); round++) {
            waited = ok("wait", Map.of("ids", ids, "timeout_s", 30, "log_lines", 5));
        }
        assertEquals(false, waited.get("timed_out"), waited.toString());
        assertEquals(true, waited.get("ok"), waited.toString());
        assertEquals("cell 1\n", ((Map<?, ?>) waited.get("logs")).get(String.valueOf(ids.get(1))));

        Map<String, Object> logs = ok("logs", Map.of("id", ids.get(2)));
        assertEquals("cell 2\n", logs.get("text"));
        assertEquals(7L, number(logs.get("next_offset")));
        Map<String, Object> head = ok("logs", Map.of("id", ids.get(2), "offset", 0, "max_bytes", 3));
        assertEquals("cel", head.get("text"));
        Map<String, Object> rest = ok("logs", Map.of("id", ids.get(2), "offset", number(head.get("next_offset"))));
        assertEquals("l 2\n", rest.get("text"));
        assertEquals("", ok("logs", Map.of("id", ids.get(2), "offset", number(rest.get("next_offset")))).get("text"));

        for (int cell = 0; cell < 3; cell++) {
            Map<String, Object> result = ok("result", Map.of("id", ids.get(cell)));
            assertEquals(true, result.get("ok"));
            assertEquals(Map.of("score", cell), result.get("result"));
        }

        McpSchema.ReadResourceResult log = client.readResource(McpSchema.ReadResourceRequest.builder(
                "nvidb://jobs/" + ids.get(0) + "/stdout").build());
        assertEquals("cell 0\n", ((McpSchema.TextResourceContents) log.contents().get(0)).text());

        Map<String, Object> again = new LinkedHashMap<>(sweep);
        again.remove("op_id");
        Map<String, Object> keyed = ok("submit", again);
        assertEquals(0, number(keyed.get("created")), "every cell's key is held by a completed job");
    }

    @Test
    void readsAndChangesAnswerTheCliDocuments() throws Exception {
        Map<String, Object> submitted = ok("submit", Map.of("command", "sleep 600", "gpus", 0, "name", "long"));
        long id = number(((Map<?, ?>) submitted.get("job")).get("id"));
        assertEquals("long", ((Map<?, ?>) ok("show_job", Map.of("id", id)).get("job")).get("name"));
        assertEquals(id, number(((Map<?, ?>) ok("why", Map.of("id", id)).get("job")).get("id")));
        Map<String, Object> status = ok("status", Map.of());
        assertTrue(status.containsKey("nodes") && status.containsKey("counts") && status.containsKey("open_alerts"));
        assertEquals("here", ((Map<?, ?>) ((List<?>) ok("nodes", Map.of()).get("nodes")).get(0)).get("node"));
        assertTrue(ok("groups", Map.of()).containsKey("groups"));
        assertEquals(1, number(ok("list_jobs", Map.of("active", true)).get("count")));
        assertEquals(false, ok("result", Map.of("id", id)).get("ok"));

        Map<String, Object> cancelled = ok("cancel", Map.of("ids", List.of(id), "op_id", "cancel-long"));
        assertEquals(true, cancelled.get("ok"));
        assertEquals(cancelled, ok("cancel", Map.of("ids", List.of(id), "op_id", "cancel-long")));
        Map<String, Object> cancelledAgain = ok("cancel", Map.of("ids", List.of(id)));
        assertEquals(false, cancelledAgain.get("ok"), "an ended job does not change");
        assertEquals(true, ok("requeue", Map.of("ids", List.of(id))).get("ok"));
        assertEquals(true, ok("cancel", Map.of("ids", List.of(id))).get("ok"));

        Map<String, Object> alerts = ok("alerts", Map.of());
        assertTrue(alerts.containsKey("open_alerts"));
        assertTrue(number(ok("ack", Map.of("all", true)).get("acknowledged")) >= 0);
        Map<String, Object> doctor = ok("doctor", Map.of());
        assertTrue(doctor.containsKey("nodes") && doctor.containsKey("database"), doctor.toString());

        McpSchema.ReadResourceResult gpus = client.readResource(McpSchema.ReadResourceRequest.builder("nvidb://gpus").build());
        assertTrue(((McpSchema.TextResourceContents) gpus.contents().get(0)).text().contains("\"nodes\""));
        assertEquals(List.of("nvidb://gpus"), client.listResources().resources().stream().map(McpSchema.Resource::uri).toList());
        assertEquals(List.of("nvidb://jobs/{id}/{stream}"), client.listResourceTemplates().resourceTemplates().stream()
                .map(McpSchema.ResourceTemplate::uriTemplate).toList());
    }

    @Test
    void badInputIsTheCliErrorEnvelopeAndChangesNothing() throws Exception {
        McpSchema.CallToolResult missing = client.callTool(request("show_job", Map.of("id", 9999)));
        assertTrue(missing.isError());
        Map<?, ?> envelope = (Map<?, ?>) missing.structuredContent();
        assertEquals(false, envelope.get("ok"));
        assertEquals(Map.of("type", "usage", "message", "no job 9999", "hint", "see 'nvidb job ls' for the ids the queue knows"),
                envelope.get("error"));
        assertEquals(MAPPER.writeValueAsString(envelope), ((McpSchema.TextContent) missing.content().get(0)).text());
        assertEquals("usage", errorType(client.callTool(request("submit",
                Map.of("command", "true", "gpu", 1)))));
        assertEquals("usage", errorType(client.callTool(request("submit",
                Map.of("command", "true", "gpus", "two")))));
        assertEquals("usage", errorType(client.callTool(request("wait",
                Map.of("ids", List.of(1), "timeout_s", 3600)))));
        assertEquals("usage", errorType(client.callTool(request("submit",
                Map.of("command", "true", "op_id", "not valid!")))));
        assertEquals(0, number(ok("list_jobs", Map.of()).get("count")));

        transport.sendRaw("this is not JSON");
        assertEquals(0, number(ok("list_jobs", Map.of()).get("count")), "the server reads on after a bad line");
        List<String> frames = transport.received();
        for (String frame : frames) {
            McpSchema.deserializeJsonRpcMessage(MAPPER, frame);
        }
        assertTrue(stderr.toString().contains("skipped a line from the client that is not a JSON-RPC message"),
                stderr.toString());
    }

    @Test
    void theServerEndsWhenItsInputCloses() throws Exception {
        ok("status", Map.of());
        stdin.out().close();
        server.join(60_000);
        assertFalse(server.isAlive());
        assertEquals(0, exitCode.get(), stderr.toString());
        assertEquals("", contextOut.toString(), "nothing but protocol frames on stdout");
    }

    private Map<String, Object> ok(String tool, Map<String, Object> arguments) {
        McpSchema.CallToolResult result = client.callTool(request(tool, arguments));
        assertFalse(result.isError(), tool + ": " + result.content());
        @SuppressWarnings("unchecked")
        Map<String, Object> document = (Map<String, Object>) result.structuredContent();
        assertEquals(dev.nvidb.output.Json.SCHEMA_VERSION, number(document.get("schema_version")), tool);
        return document;
    }

    private static String errorType(McpSchema.CallToolResult result) {
        assertTrue(result.isError(), String.valueOf(result.content()));
        return (String) ((Map<?, ?>) ((Map<?, ?>) result.structuredContent()).get("error")).get("type");
    }

    private static McpSchema.CallToolRequest request(String tool, Map<String, Object> arguments) {
        return McpSchema.CallToolRequest.builder(tool).arguments(arguments).build();
    }

    private static long number(Object value) {
        return ((Number) value).longValue();
    }
}
