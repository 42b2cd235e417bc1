package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.error.UsageException;
import dev.nvidb.queue.Queue;
import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine.Mixin;

/**
 * The one opening of a queue command: the wiring, the queue (one that already holds the jobs
 * the command names, found before anything else: job-id existence, {@link Wiring#queueHolding}),
 * the refresh before a read (tick-before-read, {@link Queue#refreshed}: a due tick, {@code --tick},
 * {@code --no-tick}), then the command's own part, answered as one JSON document or as text. A
 * command states only what is its own: its options, the {@link #jobs} it names, and {@link #run}.
 */
abstract class QueueCall extends ContextCall {

    @Mixin
    QueueOptions options;

    /** The jobs the command names, checked (a usage error changes nothing) before the queue is opened. */
    List<Long> jobs() {
        return List.of();
    }

    /** What a queue without a database lacks for this command besides its jobs (an alert), or null. */
    Supplier<UsageException> missing() {
        return null;
    }

    /** Whether the command reads the queue, and so brings it up to date first. */
    boolean reads() {
        return false;
    }

    /** The command's own part on its opened queue; returns the exit code. */
    abstract int run(Queue queue, Wiring wiring);

    @Override
    public Integer call() {
        List<Long> jobs = jobs();
        Supplier<UsageException> missing = missing();
        try (Wiring wiring = new Wiring(context).lastUse()) {
            Queue queue = missing == null ? wiring.queueHolding(options, jobs) : wiring.existingQueue(options, missing);
            if (reads()) {
                wiring.refresh(queue, options, true);
            }
            return run(queue, wiring);
        }
    }

    /** The answer: {@code document} on stdout with {@code --json}, else {@code text}; exit 0. */
    int answer(Supplier<?> document, Runnable text) {
        return answer(options.json, document, text);
    }

    /** A queue command that reads: the queue is brought up to date before {@link #run}. */
    abstract static class Read extends QueueCall {
        @Override
        boolean reads() {
            return true;
        }
    }
}
