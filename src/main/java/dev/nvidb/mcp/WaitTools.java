package dev.nvidb.mcp;

import dev.nvidb.error.UsageException;
import dev.nvidb.mcp.QueueTool.Answer;
import dev.nvidb.mcp.QueueTool.Behaviour;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.OutputChunk;
import dev.nvidb.queue.LogFollowing;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.Waiting;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The tools that would block on the CLI, bounded here so that one call never holds an agent
 * for long: {@code wait} gives up after {@code timeout_s} (at most {@value #MAX_WAIT_S} s) and
 * says so, to be called again; {@code logs} reads at most {@code max_bytes} and answers the
 * offset to read on from.
 */
final class WaitTools {

    /** The longest one {@code wait} call blocks. */
    static final int MAX_WAIT_S = 300;
    static final int DEFAULT_WAIT_S = 30;
    /** The most bytes one {@code logs} call answers. */
    static final int MAX_LOG_BYTES = LogFollowing.CHUNK;
    static final int DEFAULT_LOG_BYTES = 64 * 1024;

    private final McpContext context;

    WaitTools(McpContext context) {
        this.context = context;
    }

    List<QueueTool> tools() {
        return List.of(await(), logs());
    }

    private Queue queue() {
        return context.queue().get();
    }

    private QueueTool await() {
        InputSchema input = new InputSchema()
                .ids("ids", "The jobs to wait for.")
                .number("timeout_s", "Seconds to wait at most in this call (default " + DEFAULT_WAIT_S + ", at most "
                        + MAX_WAIT_S + ").", 0, MAX_WAIT_S)
                .integer("log_lines", "Also return the last N lines of each job's stdout as logs{id: text}.", 0, 10_000)
                .require("ids");
        return new QueueTool("wait", "Wait for jobs",
                "Wait until every job given has ended, for at most timeout_s seconds, refreshing the queue"
                        + " meanwhile (as `nvidb job wait --json`). Answers {ok, timed_out, jobs[]}: timed_out true"
                        + " means some job is still pending or running: nothing is wrong, call wait again with the"
                        + " same ids (do not resubmit). When it returns with timed_out false, ok is true if every job"
                        + " completed; otherwise read each job's state, exit_code, last_error and failure_class, then"
                        + " its logs.",
                input, Behaviour.READ, arguments -> {
                    List<Long> ids = arguments.ids("ids");
                    if (ids.isEmpty()) {
                        throw new UsageException("wait: argument 'ids' is empty", "give the ids of the jobs to wait for");
                    }
                    Queue queue = queue();
                    queue.requireJobs(ids);
                    Duration timeout = Duration.ofMillis(Math.round(arguments.doubleValue("timeout_s", DEFAULT_WAIT_S) * 1000));
                    Waiting.Outcome outcome = queue.waiting().await(ids, timeout, true, jobs -> { });
                    int lines = arguments.intValue("log_lines", 0);
                    Map<Long, String> logs = queue.logs().tails(outcome.jobs(), lines);
                    return Answer.of(JsonCommands.Waited.of(outcome, logs, lines));
                });
    }

    private QueueTool logs() {
        InputSchema input = new InputSchema()
                .integer("id", "The job.", 1, Long.MAX_VALUE)
                .choice("stream", "Which output (default stdout).", "stdout", "stderr")
                .integer("offset", "Read from this byte offset on: next_offset of the previous answer. Without it,"
                        + " the last 'lines' lines.", 0, Long.MAX_VALUE)
                .integer("lines", "Without offset: how many last lines (default 50).", 0, 1_000_000)
                .integer("max_bytes", "The most bytes to answer (default " + DEFAULT_LOG_BYTES + ", at most "
                        + MAX_LOG_BYTES + ").", 1, MAX_LOG_BYTES)
                .require("id");
        return new QueueTool("logs", "Read a job's output",
                "A job's stdout or stderr, read on its node (as `nvidb job logs --json`): {id, stream, text,"
                        + " next_offset}. Without offset: the last lines. To follow a running job without reading"
                        + " anything twice, pass the answer's next_offset back as offset; an empty text means"
                        + " nothing new yet. At most max_bytes per call (cut at a whole character; continue from"
                        + " next_offset). A job that has not started has no output yet.",
                input, Behaviour.READ, arguments -> {
                    Queue queue = queue();
                    long id = arguments.longValue("id");
                    JobView job = context.refreshedJob(id);
                    boolean stderr = arguments.string("stream", "stdout").equals("stderr");
                    int max = arguments.intValue("max_bytes", DEFAULT_LOG_BYTES);
                    OutputChunk chunk = arguments.has("offset")
                            ? queue.logs().read(job, stderr, arguments.longValue("offset")).first(max)
                            : queue.logs().lastLines(job, stderr, arguments.intValue("lines", 50)).last(max);
                    return Answer.of(new JsonCommands.Logs(Json.SCHEMA_VERSION, true, id, stderr ? "stderr" : "stdout",
                            new String(chunk.bytes(), StandardCharsets.UTF_8), chunk.nextOffset()));
                });
    }
}
