package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.error.UsageException;
import dev.nvidb.keeper.Keeper;
import dev.nvidb.queue.Queue;
import dev.nvidb.tui.TuiSession;
import dev.nvidb.tui.queue.QueueTui;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code nvidb queue tui [--refresh S]} (and plain {@code nvidb queue}): the full-screen queue.
 * It ticks every {@code --refresh} seconds when a tick is due ({@code --no-tick}: only when
 * asked with {@code t}); every database read and SSH exchange runs off the input thread.
 */
@Command(name = "tui", description = "The queue screen: nodes, jobs, alerts and logs, driven by keys and mouse.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue",
                "  nvidb queue tui --refresh 5",
                "  nvidb queue tui --no-tick        tick only when t is pressed"})
final class QueueTuiCommand extends ContextCall {

    static final int DEFAULT_REFRESH = 2;

    @Mixin
    QueueOptions options = new QueueOptions();

    @Option(names = "--refresh", paramLabel = "S", converter = NumberOption.Count.class,
            description = "Seconds between automatic ticks (default " + DEFAULT_REFRESH + "; a tick runs only when due).")
    int refresh = DEFAULT_REFRESH;

    @Override
    public Integer call() {
        if (options.json) {
            throw new UsageException("the queue screen has no JSON form", "use 'nvidb queue status --json'");
        }
        if (refresh < 1) {
            throw new UsageException("--refresh must be 1 or more seconds, got " + refresh);
        }
        if (!context.terminal()) {
            throw new UsageException("the queue screen needs a terminal",
                    "use 'nvidb queue status' (or --json) where there is none");
        }
        try (Wiring wiring = new Wiring(context)) {
            Queue queue = wiring.queue(options);
            Keeper keeper = new Keeper(wiring.home(), context.environment());
            return QueueTui.run(queue, () -> keeper.state().orElse(null), Duration.ofSeconds(refresh), !options.noTick,
                    wiring.config().view().mouse());
        } catch (TuiSession.NotATerminal e) {
            throw new UsageException("the queue screen needs a terminal",
                    "use 'nvidb queue status' (or --json) where there is none");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
