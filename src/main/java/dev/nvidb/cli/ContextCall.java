package dev.nvidb.cli;

import dev.nvidb.output.Json;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * A command of the tree: the command factory ({@code Cli}) hands it the {@link Context} of its run
 * (environment, writers, streams), so a command declares no constructor for it; {@link #answer}
 * prints its answer as one JSON document or as text.
 */
abstract class ContextCall implements Callable<Integer> {

    Context context;

    /** The answer: {@code document} as one JSON document on stdout with {@code json}, else {@code text}; exit 0. */
    int answer(boolean json, Supplier<?> document, Runnable text) {
        if (json) {
            context.out().println(Json.write(document.get()));
        } else {
            text.run();
        }
        return ExitCodes.ok();
    }
}
