package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.output.Json;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.OutputChunk;
import dev.nvidb.queue.LogFollowing;
import dev.nvidb.queue.Queue;
import java.util.List;
import java.util.function.Consumer;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code nvidb job logs ID [-n N] [--stderr] [-f]}: a job's output, read on its node. With
 * {@code -f} it follows by byte offset (no line is printed twice or skipped) and stops when the
 * job ends, after the last bytes.
 */
@Command(name = "logs", description = "Print a job's output (stdout, or --stderr); -f follows until the job ends.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb job logs 12",
                "  nvidb job logs 12 -f",
                "  nvidb job logs 12 --stderr -n 200"})
final class JobLogsCommand extends QueueCall.Read {

    @Parameters(paramLabel = "ID")
    String id;
    @Option(names = {"-n", "--lines"}, paramLabel = "N", converter = NumberOption.Count.class, description = "Start with the last N lines (default 50).")
    int lines = 50;
    @Option(names = "--stderr", description = "Read stderr instead of stdout.")
    boolean stderr;
    @Option(names = {"-f", "--follow"}, description = "Keep printing new output until the job ends.")
    boolean follow;
    @Option(names = "--interval", paramLabel = "SEC", converter = NumberOption.Interval.class, description = "Seconds between reads when following (default 1).")
    double interval = 1;
    @Option(names = "--offset", paramLabel = "BYTES", converter = NumberOption.Position.class,
            description = "Start at this byte offset (a previous --json answer's next_offset) instead of the last lines.")
    Long offset;

    @Override
    List<Long> jobs() {
        return List.of(JobIds.parse(id));
    }

    @Override
    int run(Queue queue, Wiring wiring) {
        long jobId = jobs().get(0);
        LogFollowing logs = queue.logs();
        Duration pause = Duration.ofMillis(Math.round(interval * 1000));
        JobView job = follow ? logs.awaitStart(jobId, pause) : queue.reading().getJob(jobId);
        if (offset != null && offset < 0) {
            throw new dev.nvidb.error.UsageException("--offset must be 0 or more, got " + offset);
        }
        OutputChunk chunk = offset != null ? logs.read(job, stderr, offset) : logs.lastLines(job, stderr, lines);
        if (chunk.cut()) {
            context.err().println("nvidb: job " + jobId + ": showing only the last " + (LogFollowing.CHUNK >> 20)
                    + " MiB of " + (stderr ? "stderr" : "stdout") + "; the last " + lines
                    + " lines do not fit in it (read earlier bytes with --offset)");
            context.err().flush();
        }
        return answer(() -> new JsonCommands.Logs(Json.SCHEMA_VERSION, true, jobId, stderr ? "stderr" : "stdout",
                new String(chunk.bytes(), StandardCharsets.UTF_8), chunk.nextOffset()), () -> {
            Consumer<byte[]> write = OutputChunk.asText(text -> {
                context.out().print(text);
                context.out().flush();
            });
            write.accept(chunk.bytes());
            if (follow) {
                logs.follow(job, stderr, chunk.nextOffset(), pause, write);
            }
        });
    }
}
