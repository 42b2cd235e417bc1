package dev.nvidb.mcp;

import dev.nvidb.error.NvidbException;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonQueue;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.OutputChunk;
import dev.nvidb.queue.Queue;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's resources: the GPU snapshot ({@value #GPUS}, what {@code nvidb queue nodes --json}
 * prints) and a job's output ({@code nvidb://jobs/{id}/stdout} or {@code …/stderr}: the last
 * {@value #LOG_LINES} lines, at most {@value #LOG_BYTES} bytes; the {@code logs} tool reads the rest).
 */
final class Resources {

    static final String GPUS = "nvidb://gpus";
    static final String JOB_LOG = "nvidb://jobs/{id}/{stream}";
    static final int LOG_LINES = 200;
    static final int LOG_BYTES = 64 * 1024;
    private static final Pattern JOB_LOG_URI = Pattern.compile("nvidb://jobs/([1-9][0-9]{0,17})/(stdout|stderr)");

    private final McpContext context;

    Resources(McpContext context) {
        this.context = context;
    }

    private Queue queue() {
        return context.queue().get();
    }

    McpServerFeatures.SyncResourceSpecification snapshot() {
        McpSchema.Resource resource = McpSchema.Resource.builder().uri(GPUS).name("gpus").title("GPU snapshot")
                .description("Every queue node and its GPUs as of the queue's last probe (refreshed first when due):"
                        + " memory, free_mb, utilisation, processes and who owns them, as `nvidb queue nodes --json`.")
                .mimeType("application/json").build();
        return new McpServerFeatures.SyncResourceSpecification(resource, (exchange, request) -> read(request.uri(),
                "application/json", () -> {
                    return Json.line(JsonQueue.nodes(context.refreshedQueue().reading().status(false, 0).nodes()));
                }));
    }

    McpServerFeatures.SyncResourceTemplateSpecification jobLogs() {
        McpSchema.ResourceTemplate template = McpSchema.ResourceTemplate.builder().uriTemplate(JOB_LOG).name("job-log")
                .title("A job's output")
                .description("The last " + LOG_LINES + " lines (at most " + LOG_BYTES / 1024 + " KiB) of a job's stdout or"
                        + " stderr, e.g. nvidb://jobs/12/stdout. The logs tool reads by offset.")
                .mimeType("text/plain").build();
        return new McpServerFeatures.SyncResourceTemplateSpecification(template, (exchange, request) -> {
            Matcher uri = JOB_LOG_URI.matcher(request.uri());
            if (!uri.matches()) {
                throw McpError.RESOURCE_NOT_FOUND.apply(request.uri());
            }
            return read(request.uri(), "text/plain", () -> {
                JobView job = context.refreshedJob(Long.parseLong(uri.group(1)));
                OutputChunk chunk = queue().logs().lastLines(job, uri.group(2).equals("stderr"), LOG_LINES).last(LOG_BYTES);
                return new String(chunk.bytes(), StandardCharsets.UTF_8);
            });
        });
    }

    /** One text resource; a failure is a JSON-RPC error carrying the CLI's error envelope as its data. */
    private static McpSchema.ReadResourceResult read(String uri, String mimeType, Supplier<String> text) {
        try {
            return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(uri, mimeType, text.get())));
        } catch (NvidbException e) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message(e.getMessage())
                    .data(Json.readObject(Json.line(dev.nvidb.output.JsonError.of(e.type(), e.getMessage(),
                            e.hint().orElse(null))))).build();
        }
    }
}
