package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built {@code bin/nvidb mcp} as an agent's MCP client starts it: a child process spoken to
 * over its stdin and stdout by the SDK's own stdio client, on this machine's queue.
 */
class McpIT {

    private static final McpJsonMapper MAPPER = McpJsonDefaults.getMapper();

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void queue() throws Exception {
        Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(home.resolve(".nvidb/queue.yml"),
                "queue:\n  local_node_name: here\n  max_cpu_jobs_per_node: 8\n");
        Path project = Path.of(System.getProperty("nvidb.project.dir", "."));
        env = new HashMap<>(Launcher.localEnvironment(home));
        env.put("NVIDB_HOME", home.resolve(".nvidb").toString());
        env.put("NVIDB_NO_BUILD", "1");
        env.put("NVIDB_BUILD_DIR", System.getProperty("nvidb.build.dir", project.resolve("target").toString()));
        if (System.getenv("JAVA_HOME") != null) {
            env.put("JAVA_HOME", System.getenv("JAVA_HOME")); // the SDK's client passes on only a few variables
        }
    }

    private static String launcher() {
        return Path.of(System.getProperty("nvidb.project.dir", "."), "bin/nvidb").toAbsolutePath().toString();
    }

    @Test
    void anAgentSubmitsASweepRetriesItWaitsAndReadsResults() throws Exception {
        ServerParameters server = ServerParameters.builder(launcher()).args("mcp").env(env).build();
        McpSyncClient client = McpClient.sync(new StdioClientTransport(server, MAPPER))
                .requestTimeout(Duration.ofSeconds(120)).initializationTimeout(Duration.ofSeconds(120)).build();
        try {
            McpSchema.InitializeResult init = client.initialize();
            assertEquals("nvidb", init.serverInfo().name());
            assertEquals(15, client.listTools().tools().size());

            Path release = home.resolve("release");
            Map<String, Object> sweep = new LinkedHashMap<>();
            sweep.put("command", "while [ ! -e '" + release + "' ]; do sleep 0.05; done; echo seed {};"
                    + " echo '{\"loss\": {}}' > \"$NVIDB_JOB_DIR/result.json\"");
            sweep.put("gpus", 0);
            sweep.put("array", "1-4");
            sweep.put("op_id", "3d0c-sweep-seeds");
            Map<String, Object> first = ok(client, "submit", sweep);
            assertEquals(4L, number(first.get("created")));
            List<Long> ids = ((List<?>) first.get("jobs")).stream().map(job -> number(((Map<?, ?>) job).get("id"))).toList();

            McpSchema.CallToolResult retry = client.callTool(request("submit", sweep));
            assertFalse(retry.isError());
            assertEquals(first, retry.structuredContent(), "the retry answers the first call's document");
            assertEquals(4L, number(ok(client, "list_jobs", Map.of()).get("count")), "and stores no job");

            Map<String, Object> held = ok(client, "wait", Map.of("ids", ids, "timeout_s", 0.5));
            assertEquals(true, held.get("timed_out"));
            Files.writeString(release, "");
            Map<String, Object> waited = held;
            for (int round = 0; round < 20 && Boolean.TRUE.equals(waited.get("timed_out")); round++) {
                waited = ok(client, "wait", Map.of("ids", ids, "timeout_s", 30));
            }
            assertEquals(true, waited.get("ok"), waited.toString());

            for (int cell = 0; cell < 4; cell++) {
                long id = ids.get(cell);
                assertEquals("seed " + (cell + 1) + "\n", ok(client, "logs", Map.of("id", id)).get("text"));
                assertEquals(Map.of("loss", cell + 1), ok(client, "result", Map.of("id", id)).get("result"));
            }
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void theProcessWritesOnlyFramesAndExitsWhenStdinCloses() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(launcher(), "mcp");
        builder.environment().putAll(env);
        Process process = builder.start();
        OutputStream stdin = process.getOutputStream();
        try (BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            stdin.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            McpSchema.JSONRPCMessage answer = McpSchema.deserializeJsonRpcMessage(MAPPER, stdout.readLine());
            assertTrue(answer instanceof McpSchema.JSONRPCResponse response && response.error() == null, answer.toString());
            stdin.close();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "nvidb mcp still runs after its stdin closed");
            assertEquals(0, process.exitValue(), new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            assertEquals(null, stdout.readLine(), "nothing after the answer");
        } finally {
            process.destroyForcibly();
        }
    }

    private static Map<String, Object> ok(McpSyncClient client, String tool, Map<String, Object> arguments) {
        McpSchema.CallToolResult result = client.callTool(request(tool, arguments));
        assertFalse(result.isError(), tool + ": " + result.content());
        @SuppressWarnings("unchecked")
        Map<String, Object> document = (Map<String, Object>) result.structuredContent();
        return document;
    }

    private static McpSchema.CallToolRequest request(String tool, Map<String, Object> arguments) {
        return McpSchema.CallToolRequest.builder(tool).arguments(arguments).build();
    }

    private static long number(Object value) {
        return ((Number) value).longValue();
    }
}
