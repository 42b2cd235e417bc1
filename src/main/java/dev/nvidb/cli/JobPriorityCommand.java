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
 * {@code nvidb job priority ID [N|+N|-N] [--up N|--down N]}: set or adjust a priority, or move
 * a pending job N places earlier or later in the dispatch order.
 */
@Command(name = "priority", description = "Set (5), adjust (+1, -2) or move (--up/--down N) a job's priority.")
final class JobPriorityCommand extends QueueCall {

    @Mixin
    OpIdOption operation;

    @Parameters(index = "0", paramLabel = "ID")
    String id;
    @Parameters(index = "1", arity = "0..1", paramLabel = "N|+N|-N")
    String value;
    @Option(names = "--up", paramLabel = "N", converter = NumberOption.PositiveCount.class, description = "Move a pending job N places earlier.")
    Integer up;
    @Option(names = "--down", paramLabel = "N", converter = NumberOption.PositiveCount.class, description = "Move a pending job N places later.")
    Integer down;

    @Override
    List<Long> jobs() {
        long jobId = JobIds.parse(id);
        if ((value != null ? 1 : 0) + (up != null ? 1 : 0) + (down != null ? 1 : 0) > 1) {
            throw new UsageException("give one of N, +N, -N, --up N or --down N");
        }
        return List.of(jobId);
    }

    @Override
    int run(Queue queue, Wiring wiring) {
        long jobId = jobs().get(0);
        if (value != null) {
            queue.control().setPriority(jobId, adjusted(queue.reading().getJob(jobId).job().priority(), value));
        } else if (up != null || down != null) {
            int places = up != null ? up : -down;
            if (places == 0 || (up != null && up < 0) || (down != null && down < 0)) {
                throw new UsageException("--up and --down take a positive number of places");
            }
            queue.control().move(jobId, places);
        }
        int priority = queue.reading().getJob(jobId).job().priority();
        return answer(() -> new JsonCommands.Priority(Json.SCHEMA_VERSION, true, jobId, priority),
                () -> context.out().println(priority));
    }

    static int adjusted(int current, String text) {
        String trimmed = text.strip();
        try {
            if (trimmed.startsWith("+") || trimmed.startsWith("-")) {
                return Math.addExact(current, Integer.parseInt(trimmed));
            }
            return Integer.parseInt(trimmed);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new UsageException("priority must be a number (5), or +N / -N to adjust, got '" + text + "'");
        }
    }
}
