package dev.nvidb.mcp;

import dev.nvidb.error.UsageException;
import dev.nvidb.mcp.QueueTool.Answer;
import dev.nvidb.mcp.QueueTool.Behaviour;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.output.JsonDoctor;
import dev.nvidb.output.JsonGroups;
import dev.nvidb.output.JsonQueue;
import dev.nvidb.queue.AlertView;
import dev.nvidb.queue.Queue;
import java.util.List;

/**
 * The tools on the queue as a whole: status, nodes, groups, alerts, ack and doctor, each
 * answering what the matching {@code nvidb queue …|doctor --json} prints.
 */
final class QueueTools {

    private final McpContext context;

    QueueTools(McpContext context) {
        this.context = context;
    }

    List<QueueTool> tools() {
        return List.of(status(), nodes(), groups(), alerts(), ack(), doctor());
    }

    private Queue queue() {
        return context.queue().get();
    }

    private QueueTool status() {
        InputSchema input = new InputSchema()
                .integer("recent", "Also list the N most recently finished jobs (default 10).", 0, 1_000_000);
        return new QueueTool("status", "Queue status",
                "The whole queue in one answer (as `nvidb queue status --json`): nodes with each GPU's free_mb"
                        + " (what a new job may still reserve) and ownership, active and recent jobs, counts by"
                        + " state, open alerts, kills owed to unreachable nodes, the keeper. Start here.",
                input, Behaviour.READ, arguments -> {
                    Queue queue = context.refreshedQueue();
                    return Answer.of(JsonQueue.status(queue.reading().status(false, arguments.intValue("recent", 10)),
                            context.keeper().get()));
                });
    }

    private QueueTool nodes() {
        InputSchema input = new InputSchema().bool("include_ignored", "Also list nodes the queue ignores.");
        return new QueueTool("nodes", "GPU nodes",
                "The queue's nodes and their GPUs as of their last answer (as `nvidb queue nodes --json`): per GPU"
                        + " mem_total_mb, mem_used_mb, free_mb, util_percent, external_mem_mb (work the queue did not"
                        + " start), ownership and processes; a node whose status is down gets no new jobs.",
                input, Behaviour.READ, arguments -> {
                    Queue queue = context.refreshedQueue();
                    return Answer.of(JsonQueue.nodes(queue.reading().status(arguments.bool("include_ignored"), 0).nodes()));
                });
    }

    private QueueTool groups() {
        return new QueueTool("groups", "Job groups",
                "Every group (a sweep or an array) with done/total, counts by state, its cap and whether it is held"
                        + " after quick failures (as `nvidb queue groups --json`). A held group's pending jobs wait"
                        + " until a person releases it: read a failed job's logs and tell the user.",
                new InputSchema(), Behaviour.READ, arguments -> {
                    Queue queue = context.refreshedQueue();
                    return Answer.of(JsonGroups.of(queue.groups().list()));
                });
    }

    private QueueTool alerts() {
        return new QueueTool("alerts", "Open alerts",
                "Open alerts, oldest first (as `nvidb queue alerts --json`): failed, lost and timed-out jobs, jobs"
                        + " that can never run, nodes down, held groups; ok is false while any is open. Acknowledge"
                        + " what you have handled with ack.",
                new InputSchema(), Behaviour.READ, arguments -> {
                    Queue queue = context.refreshedQueue();
                    List<AlertView> open = queue.reading().openAlerts();
                    return Answer.of(new JsonCommands.Alerts(Json.SCHEMA_VERSION, open.isEmpty(), open.size(),
                            open.stream().map(JsonQueue::alert).toList()));
                });
    }

    private QueueTool ack() {
        InputSchema input = new InputSchema()
                .integer("id", "The alert to acknowledge.", 1, Long.MAX_VALUE)
                .bool("all", "Acknowledge every open alert instead.")
                .string(OperationCalls.OP_ID, "Operation id: a retry with the same op_id answers the first call's"
                        + " document again.");
        return new QueueTool("ack", "Acknowledge alerts",
                "Acknowledge one open alert (id) or all of them (all: true); an alert is never raised twice for the"
                        + " same failure. Answers {acknowledged: N}.",
                input, Behaviour.UPDATE_IDEMPOTENT, arguments -> OperationCalls.run(queue(), "ack", arguments, () -> {
                    if (arguments.has("id") == arguments.bool("all")) {
                        throw new UsageException("ack: give an alert id or all: true", "see the alerts tool");
                    }
                    int count = queue().reading().acknowledge(arguments.longValue("id"));
                    return Answer.of(new JsonCommands.Acknowledged(Json.SCHEMA_VERSION, true, count));
                }));
    }

    private QueueTool doctor() {
        return new QueueTool("doctor", "Health check",
                "A read-only health check of every node (reachable, host key known, authentication, agent, clock)"
                        + " and of the queue database (as `nvidb doctor --json`); ok is false when something needs"
                        + " attention, each check with a hint. It changes nothing: tell the user what the hints say.",
                new InputSchema(), Behaviour.READ, arguments -> Answer.of(JsonDoctor.of(context.doctor().get())));
    }
}
