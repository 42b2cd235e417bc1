package dev.nvidb.mcp;

import dev.nvidb.error.NvidbException;
import dev.nvidb.mcp.QueueTool.Answer;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonError;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code nvidb mcp}: the queue's use cases as Model Context Protocol tools and resources, served
 * over a pair of streams (stdin and stdout) by the official SDK until the client closes its end.
 * Every answer is the JSON document the matching CLI command prints with {@code --json}; a
 * failure is the CLI's error envelope with {@code isError} set. Nothing but protocol frames is
 * written to the output stream.
 */
public final class McpServer {

    /** The server's name, as clients list it. */
    public static final String NAME = "nvidb";

    static final String INSTRUCTIONS = "nvidb is the lab's GPU job queue. To run anything on a GPU, submit it as a job"
            + " (never start GPU processes over ssh yourself). Give every submit an op_id (a fresh UUID per intended"
            + " submit) and retry with the same op_id if a call fails or times out: it answers the first call's jobs"
            + " and stores nothing twice. wait is bounded: while it answers timed_out true, call it again. Read output"
            + " with logs (pass next_offset back as offset to follow) and results with result. When a job stays"
            + " pending, ask why before changing anything. Answers are the documents of `nvidb … --json`.";

    private final McpContext context;
    private final List<QueueTool> tools;
    private final Resources resources;
    private final McpJsonMapper mapper = McpJsonDefaults.getMapper();

    public McpServer(McpContext context) {
        this.context = context;
        List<QueueTool> all = new ArrayList<>();
        all.addAll(new JobTools(context).tools());
        all.addAll(new WaitTools(context).tools());
        all.addAll(new QueueTools(context).tools());
        this.tools = List.copyOf(all);
        this.resources = new Resources(context);
    }

    /**
     * Serves one client over {@code in} and {@code out} and returns once {@code in} has ended
     * (the client closed it, or reading it failed); the server is closed by then. Each line read
     * is handed to the SDK only if it is a JSON-RPC message; any other line is reported on stderr
     * and skipped (the SDK would stop reading at it).
     */
    public void serve(InputStream in, OutputStream out) throws IOException {
        PipedOutputStream frames = new PipedOutputStream();
        PipedInputStream sdkInput = new PipedInputStream(frames, 1 << 16);
        McpSyncServer server = io.modelcontextprotocol.server.McpServer
                .sync(new StdioServerTransportProvider(mapper, sdkInput, out))
                .serverInfo(new McpSchema.Implementation(NAME, "nvidb GPU job queue", context.version()))
                .instructions(INSTRUCTIONS)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).build())
                .validateToolInputs(false) // Arguments checks them, answering the CLI's usage envelope
                .tools(tools.stream().map(this::specification).toList())
                .resources(resources.snapshot())
                .resourceTemplates(resources.jobLogs())
                .build();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                String problem = frameProblem(line);
                if (problem != null) {
                    // No answer: MCP responses must carry the request's id, and this line has none.
                    context.notices().accept("mcp: skipped a line from the client that is " + problem);
                    continue;
                }
                frames.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                frames.flush();
            }
        } catch (IOException e) {
            // The client went away (or the SDK stopped reading): the session ends either way.
        } finally {
            frames.close();
            server.close();
        }
    }

    /** Why {@code line} is not a JSON-RPC message, or null when it is one. */
    private String frameProblem(String line) {
        try {
            McpSchema.deserializeJsonRpcMessage(mapper, line);
            return null;
        } catch (IOException | RuntimeException e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
            return "not a JSON-RPC message: " + why;
        }
    }

    /** The tools offered, in the order they are listed. */
    List<QueueTool> tools() {
        return tools;
    }

    private McpServerFeatures.SyncToolSpecification specification(QueueTool tool) {
        McpSchema.ToolAnnotations annotations = new McpSchema.ToolAnnotations(tool.title(), tool.behaviour().readOnly,
                tool.behaviour().destructive, tool.behaviour().idempotent, false, null);
        McpSchema.Tool described = McpSchema.Tool.builder().name(tool.name()).title(tool.title())
                .description(tool.description()).inputSchema(tool.input().toMap()).annotations(annotations).build();
        return McpServerFeatures.SyncToolSpecification.builder().tool(described)
                .callHandler((exchange, request) -> result(call(tool, request.arguments()))).build();
    }

    /** Runs one call; a failure becomes the error envelope, as {@code --json} prints it. */
    Answer call(QueueTool tool, Map<String, Object> arguments) {
        try {
            return tool.call().run(Arguments.check(tool.name(), tool.input(), arguments));
        } catch (NvidbException e) {
            return error(e.type(), e.getMessage(), e.hint().orElse(null));
        } catch (RuntimeException e) {
            context.notices().accept("internal error in tool " + tool.name() + ": " + e);
            return error("internal", "internal error: " + e, "please report it, with what the call was given");
        }
    }

    private static Answer error(String type, String message, String hint) {
        return new Answer(Json.line(JsonError.of(type, message, hint)), true, false);
    }

    private McpSchema.CallToolResult result(Answer answer) {
        McpSchema.CallToolResult.Builder result = McpSchema.CallToolResult.builder().addTextContent(answer.json())
                .structuredContent(mapper, answer.json()).isError(answer.error());
        if (answer.replayed()) {
            result.meta(Map.of("nvidb/replayed", true));
        }
        return result.build();
    }
}
