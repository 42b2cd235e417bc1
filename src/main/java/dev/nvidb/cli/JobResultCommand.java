package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.error.UsageException;
import dev.nvidb.output.Json;
import dev.nvidb.queue.Queue;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code nvidb job result ID [--set JSON]}: the job's result document, collected from its
 * {@code result.json} or set by a client; how clients pass structured data to each other.
 * Exit 1 while the job has no result, with or without {@code --json}.
 */
@Command(name = "result", description = "Print a job's result document, or set it with --set.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb job result 12",
                "  nvidb job result 12 --set '{\"loss\": 0.12}'"})
final class JobResultCommand extends QueueCall implements HandedCommand.AsLine {

    @Mixin
    OpIdOption operation;

    @Parameters(paramLabel = "ID")
    String id;
    @Option(names = "--set", paramLabel = "JSON", description = "Store this JSON object as the job's result.")
    String set;

    @Override
    List<Long> jobs() {
        long jobId = JobIds.parse(id);
        if (set != null && !Json.isObject(set)) {
            throw new UsageException("--set takes one JSON object, e.g. '{\"loss\": 0.12}'");
        }
        return List.of(jobId);
    }

    @Override
    boolean reads() {
        return set == null;
    }

    @Override
    int run(Queue queue, Wiring wiring) {
        long jobId = jobs().get(0);
        if (set != null) {
            queue.control().setResult(jobId, Json.compact(set));
        }
        String result = queue.reading().getJob(jobId).job().result();
        answer(() -> new JsonCommands.Result(Json.SCHEMA_VERSION, result != null, jobId, Json.parse(result)), () -> {
            if (result == null) {
                context.err().println("job " + jobId + " has no result yet");
            } else {
                context.out().println(result);
            }
        });
        return ExitCodes.okOr(result != null, ExitCodes.Outcome.FAILED);
    }
}
