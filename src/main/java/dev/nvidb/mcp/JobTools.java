package dev.nvidb.mcp;

import dev.nvidb.error.UsageException;
import dev.nvidb.mcp.QueueTool.Answer;
import dev.nvidb.mcp.QueueTool.Behaviour;
import dev.nvidb.model.JobState;
import dev.nvidb.model.RunPolicy;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.output.JsonJob;
import dev.nvidb.output.JsonJobs;
import dev.nvidb.output.JsonWhy;
import dev.nvidb.queue.JobChange;
import dev.nvidb.queue.JobSelection;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.Refresh;
import dev.nvidb.queue.SubmitRequest;
import dev.nvidb.queue.Submitted;
import dev.nvidb.queue.SweepRequest;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The tools on jobs: submit, list, show, why, result, cancel, requeue. Each answers the document
 * the matching {@code nvidb job … --json} prints (docs/json.md) and ticks the queue as that
 * command does: a submit places its jobs at once, reads refresh the queue when a tick is due.
 * Waiting and logs are in {@link WaitTools}.
 */
final class JobTools {

    private static final long TEN_YEARS = 315_360_000L;
    private static final long MILLION = 1_000_000L;
    private static final String[] STATES = {"pending", "running", "completed", "failed", "cancelled", "timeout", "lost"};
    private static final String OP_ID_TEXT = "Operation id (1-128 of A-Z a-z 0-9 . _ : @ + = / -, e.g. a UUID). A retry"
            + " of exactly the same call with the same op_id answers the first call's document again and changes"
            + " nothing; the same op_id with other arguments is a usage error. Make a fresh one per intended action.";

    private final McpContext context;

    JobTools(McpContext context) {
        this.context = context;
    }

    List<QueueTool> tools() {
        return List.of(submit(), listJobs(), showJob(), why(), result(), cancel(), requeue());
    }

    private Queue queue() {
        return context.queue().get();
    }

    private QueueTool submit() {
        InputSchema input = new InputSchema()
                .string("command", "The command line to run on the node, by bash -c (pipes, &&, redirection and $VAR"
                        + " work). Paths are the node's. In an array, {} is replaced by the cell's index.")
                .string("name", "Job name (default: the command's first word; an array's cells are NAME[i]).")
                .integer("gpus", "GPUs, all on one node (default 1; 0: a CPU-only job).", 0, 1024)
                .integer("vram_mb", "GPU memory to reserve per GPU, in MiB (default 0: none). A job is charged the"
                        + " larger of this and what it really uses, so give a realistic figure.", 0, 1L << 30)
                .string("node", "Run only on this node (exact name or unique prefix).")
                .string("workdir", "Directory on the node ('~' is the node's home). Default: work/ in the job's own"
                        + " directory.")
                .stringMap("env", "Extra environment variables, name to value. Pass tokens here, never in the command:"
                        + " credential-like names are masked in every answer.")
                .integer("priority", "Higher runs first (default 0).", Integer.MIN_VALUE, Integer.MAX_VALUE)
                .ids("after", "Start only after these jobs completed; if one fails, this job fails too.")
                .ids("after_any", "Start only after these jobs ended, however.")
                .integer("timeout_s", "Seconds; the job is killed and marked timeout after that.", 1, TEN_YEARS)
                .integer("retries", "Start again up to N times if its process vanished (node rebooted, killed); not"
                        + " for a non-zero exit.", 0, MILLION)
                .integer("retry_oom", "If it fails out of GPU memory, queue it again up to N times with 1.25x its"
                        + " measured peak reserved.", 0, RunPolicy.MAX_RETRY_OOM)
                .bool("exclusive", "Run only on GPUs with no process at all, and keep every other job off them.")
                .strings("tags", "Labels.")
                .string("note", "A note for people about the job.")
                .string("key", "Idempotency key: if a pending, running or completed job holds it, that job is the"
                        + " answer (existing: true) and nothing is stored. For an array each cell's key is KEY[i],"
                        + " so submitting the same array again stores only missing or failed cells.")
                .string("group", "Put the jobs in this group (default: the server's NVIDB_GROUP; an array is its"
                        + " own group, named after it).")
                .string("array", "Submit one job per index: A-B, A-B:STEP or a list 1,3,5, then %CAP for at most"
                        + " CAP running at once, e.g. 0-49%8 (at most 10,000 cells).")
                .string(OperationCalls.OP_ID, OP_ID_TEXT)
                .require("command");
        return new QueueTool("submit", "Submit GPU work",
                "Queue a command (or a sweep: an array of cells) to run on a GPU node when a GPU has room; it is"
                        + " placed at once when one has. Answers {job, existing, group, created, jobs[]}: check"
                        + " job.state (pending with job.pending_reason, running with node and gpu_ids, or failed at once"
                        + " with last_error 'unschedulable: …' when no GPU could ever hold it). If a call timed out"
                        + " or you are unsure it went through, call again with the same op_id (or key): never a plain"
                        + " resubmit. Then use wait, logs and result.",
                input, Behaviour.ADD, arguments -> OperationCalls.run(queue(), "submit", arguments,
                        () -> submitNow(arguments)));
    }

    private Answer submitNow(Arguments arguments) {
        Queue queue = queue();
        if (arguments.string("command").isBlank()) {
            throw new UsageException("submit: argument 'command' is empty", "give the command line to run on the node");
        }
        String group = arguments.string("group", context.environment().get("NVIDB_GROUP"));
        SubmitRequest request = new SubmitRequest(arguments.string("name"), arguments.string("command"),
                arguments.intValue("gpus", 1), arguments.longValue("vram_mb", 0), arguments.string("node"),
                arguments.string("workdir"), arguments.stringMap("env"), arguments.intValue("priority", 0),
                arguments.ids("after"), arguments.ids("after_any"), arguments.longValue("timeout_s"),
                arguments.intValue("retries", 0), arguments.strings("tags"), arguments.string("note"),
                context.submitter(), context.environment(),
                new SweepRequest(group, arguments.string("key"), arguments.string("array"),
                        arguments.string(OperationCalls.OP_ID)),
                new RunPolicy(arguments.bool("exclusive"), arguments.intValue("retry_oom", 0)));
        Submitted submitted = queue.submitting().submitAll(request);
        long first = submitted.cells().get(0).id();
        RuntimeException failure = queue.submitting().place(first).failure();
        if (failure != null) {
            context.notices().accept("job " + first + " is queued, but placing it failed: " + failure.getMessage()
                    + " (the next tick places it)");
        }
        JsonJob job = queue.submitting().current(first).map(JsonJob::of).orElse(null);
        return Answer.of(JsonJobs.submitted(submitted, job));
    }

    private QueueTool listJobs() {
        InputSchema input = new InputSchema()
                .strings("states", "Only jobs in these states: " + String.join(", ", STATES) + ".")
                .bool("active", "Only pending and running jobs.")
                .string("node", "Only jobs placed on this node.")
                .string("group", "Only the jobs of this group (a sweep or an array).")
                .integer("limit", "Only the newest N jobs.", 0, MILLION);
        return new QueueTool("list_jobs", "List jobs",
                "List the queue's jobs, oldest first, filtered by state, node or group (as `nvidb job ls --json`)."
                        + " Answers {count, jobs[]}; each job has id, name, state, node, gpu_ids, exit_code,"
                        + " last_error, failure_class, pending_reason, progress.",
                input, Behaviour.READ, arguments -> {
                    Set<JobState> states = EnumSet.noneOf(JobState.class);
                    if (arguments.bool("active")) {
                        states.add(JobState.PENDING);
                        states.add(JobState.RUNNING);
                    }
                    for (String state : arguments.strings("states")) {
                        states.add(state(state));
                    }
                    Queue queue = queue();
                    String node = arguments.has("node") ? queue.nodeAdmin().resolve(arguments.string("node")) : null;
                    Long limit = arguments.longValue("limit");
                    JobSelection query = new JobSelection(states, node, limit == null ? null : limit.intValue(),
                            arguments.string("group"));
                    return Answer.of(JsonJobs.many(queue.refreshed(Refresh.IF_DUE).reading().listJobs(query).stream().map(JsonJob::of).toList()));
                });
    }

    private static JobState state(String text) {
        try {
            return JobState.valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException("list_jobs: unknown job state '" + text + "'", "states: " + String.join(", ", STATES));
        }
    }

    private QueueTool showJob() {
        InputSchema input = new InputSchema()
                .integer("id", "The job.", 1, Long.MAX_VALUE)
                .integer("log_lines", "Also return the last N lines of its stdout as 'logs'.", 0, 10_000)
                .require("id");
        return new QueueTool("show_job", "Show a job",
                "One job in full (as `nvidb job show --json`): state, command, node, gpu_ids, vram_mb, exit_code,"
                        + " last_error, failure_class, attempt, notes, progress, result, job_dir, and env (credential"
                        + " values masked).",
                input, Behaviour.READ, arguments -> {
                    JobView view = context.refreshedJob(arguments.longValue("id"));
                    String logs = arguments.has("log_lines")
                            ? queue().logs().tail(view, false, arguments.intValue("log_lines", 0)) : null;
                    return Answer.of(JsonJobs.one(JsonJob.of(view), logs, view.job().spec().environment(), false));
                });
    }

    private QueueTool why() {
        InputSchema input = new InputSchema().integer("id", "The job.", 1, Long.MAX_VALUE).require("id");
        return new QueueTool("why", "Why is a job waiting",
                "Explain a job (as `nvidb job why --json`): for a pending one, blockers[] (kind: held,"
                        + " dependency_waiting, no_room, kept_for_earlier_job, never_fits, …), each node's and GPU's"
                        + " verdict with free_mb against the job's needs, and fit: where it would start first. Use it"
                        + " before changing a job that stays pending; never_fits will not change by waiting.",
                input, Behaviour.READ, arguments -> {
                    long id = context.refreshedJob(arguments.longValue("id")).id();
                    dev.nvidb.queue.WhyView view = queue().explaining().why(id);
                    return Answer.of(JsonWhy.of(JsonJob.of(view.job()), view));
                });
    }

    private QueueTool result() {
        InputSchema input = new InputSchema().integer("id", "The job.", 1, Long.MAX_VALUE).require("id");
        return new QueueTool("result", "Read a job's result",
                "The JSON object the job wrote to $NVIDB_JOB_DIR/result.json (collected when it ended), as"
                        + " `nvidb job result --json`: {ok, id, result}; ok is false and result null while there is"
                        + " none.",
                input, Behaviour.READ, arguments -> {
                    long id = arguments.longValue("id");
                    String result = context.refreshedJob(id).job().result();
                    return Answer.of(new JsonCommands.Result(Json.SCHEMA_VERSION, result != null, id, Json.parse(result)));
                });
    }

    private QueueTool cancel() {
        InputSchema input = changeInput("cancel every pending and running job of this group");
        return new QueueTool("cancel", "Cancel jobs",
                "Cancel jobs: a pending one never starts, a running one's processes get TERM, then KILL. Give ids or"
                        + " a group. Answers {ok, jobs[]} with changed false (and a message) for a job that had"
                        + " already ended; ok is true only when every job changed.",
                input, Behaviour.DESTRUCTIVE_IDEMPOTENT, arguments -> OperationCalls.run(queue(), "cancel", arguments,
                        () -> change(arguments, ids -> queue().control().cancel(ids), group -> queue().groups().cancel(group))));
    }

    private QueueTool requeue() {
        InputSchema input = changeInput("run this group's failed, timed-out and lost jobs again");
        return new QueueTool("requeue", "Run jobs again",
                "Run jobs again as a new attempt (a running one is killed first; the note is kept, progress and"
                        + " result are cleared); on a held job it releases the hold. Give ids, or a group to requeue"
                        + " its failed, timed-out and lost jobs. Answers {ok, jobs[]} with changed false for a job"
                        + " already pending. Do not requeue a running job whose node stopped answering"
                        + " (unverified_since set): it may have finished.",
                input, Behaviour.DESTRUCTIVE, arguments -> OperationCalls.run(queue(), "requeue", arguments,
                        () -> change(arguments, ids -> queue().control().requeue(ids),
                                group -> queue().groups().requeueFailed(group))));
    }

    private static InputSchema changeInput(String group) {
        return new InputSchema()
                .ids("ids", "The jobs.")
                .string("group", "Instead of ids: " + group + ".")
                .string(OperationCalls.OP_ID, OP_ID_TEXT);
    }

    private Answer change(Arguments arguments, java.util.function.Function<List<Long>, List<JobChange>> byId,
                          java.util.function.Function<String, List<JobChange>> byGroup) {
        List<Long> ids = arguments.ids("ids");
        String group = arguments.string("group");
        if (group == null && ids.isEmpty()) {
            throw new UsageException("no jobs given", "give ids, or a group");
        }
        if (group != null && !ids.isEmpty()) {
            throw new UsageException("give ids or a group, not both");
        }
        queue().requireJobs(ids);
        List<JobChange> changes = group != null ? byGroup.apply(group) : byId.apply(ids);
        return Answer.of(new JsonCommands.JobsChanged(Json.SCHEMA_VERSION, changes.stream().allMatch(JobChange::changed),
                changes));
    }
}
