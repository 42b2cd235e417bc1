package dev.nvidb.mcp;

import dev.nvidb.doctor.Report;
import dev.nvidb.output.JsonKeeper;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.Refresh;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What the MCP server needs from the process that runs it ({@code cli.McpCommand} builds it):
 * the opened queue, the doctor's examination, the keeper's state, who submits, and where notices go.
 *
 * @param queue       the queue the tools work on (opened once, shared by concurrent calls)
 * @param doctor      runs {@code nvidb doctor}'s examination (read-only)
 * @param keeper      the keeper's state for {@code status}, or null when none is installed
 * @param submitter   {@code user@host}, recorded with submitted jobs
 * @param environment this process's environment: recorded for jobs that may run on the local node;
 *                    {@code NVIDB_GROUP} is the default group
 * @param notices     one line for stderr (never stdout: it carries the protocol)
 * @param version     nvidb's version, sent as the server's
 */
public record McpContext(Supplier<Queue> queue, Supplier<Report> doctor, Supplier<JsonKeeper> keeper, String submitter,
                         Map<String, String> environment, Consumer<String> notices, String version) {

    public McpContext {
        environment = Map.copyOf(environment);
    }

    /** The queue, brought up to date first when a tick is due, as a CLI read does. */
    Queue refreshedQueue() {
        return queue.get().refreshed(Refresh.IF_DUE);
    }

    /** Job {@code id} after a due tick; no such job is a usage error, found before any tick. */
    JobView refreshedJob(long id) {
        return queue.get().job(id, Refresh.IF_DUE);
    }
}
