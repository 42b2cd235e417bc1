package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.error.UsageException;
import dev.nvidb.output.Json;
import dev.nvidb.output.Printable;
import dev.nvidb.output.DaemonText;
import dev.nvidb.daemon.ConfigWatch;
import dev.nvidb.daemon.Daemon;
import dev.nvidb.daemon.HandedRequests;
import dev.nvidb.queue.DaemonPass;
import dev.nvidb.queue.Passes;
import dev.nvidb.queue.Queue;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code nvidb queue daemon [--interval S] [--once] [--no-notify]}: tick on a timer. Text mode
 * prints a line for each pass that changed something or failed (the keeper's log); {@code --json}
 * prints one JSON document per pass, one per line.
 */
@Command(name = "daemon", description = "Keep the queue moving: tick and deliver alerts every interval.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue daemon",
                "  nvidb queue daemon --interval 5",
                "  nvidb queue daemon --once --json     # a single pass, for cron"})
final class QueueDaemonCommand implements Callable<Integer> {

    /** Seconds between passes when {@code --interval} is not given. */
    static final double DEFAULT_INTERVAL = 15;

    private final Context context;

    @Mixin
    QueueOptions options;

    @Option(names = "--interval", paramLabel = "S", converter = NumberOption.Interval.class,
            description = "Seconds between passes (default: 15).")
    Double interval;

    @Option(names = "--once", description = "Run one pass and exit: 0 when every node answered and no alert delivery failed, 1 otherwise.")
    boolean once;

    @Option(names = "--no-notify", description = "Tick only; leave alerts for a later pass to deliver (queue.notify).")
    boolean noNotify;

    QueueDaemonCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        if (options.noTick) {
            throw new UsageException("queue daemon ticks; --no-tick makes no sense here", "leave out --no-tick");
        }
        Duration every = Duration.ofMillis(Math.round((interval == null ? DEFAULT_INTERVAL : interval) * 1000));
        if (once) {
            try (Wiring wiring = new Wiring(context)) {
                DaemonPass pass = new Daemon(passes(wiring.queue(options))).pass();
                print(pass, true);
                return ExitCodes.okOr(pass.ok(), ExitCodes.Outcome.FAILED);
            }
        }
        HandedRequests[] handed = {null};
        Daemon.runReloading(() -> {
            Wiring wiring = new Wiring(context);
            try {
                // Stamped before the configuration is read: an edit made while it is read is seen later.
                ConfigWatch files = new ConfigWatch(wiring.home().configYml(), wiring.home().queueYml());
                Queue queue = wiring.queue(options);
                if (!options.json && handed[0] == null) {
                    context.err().println("nvidb: queue daemon: a pass every " + every.toMillis() / 1000.0 + " s on "
                            + queue.ticking().databaseFile() + "; Ctrl-C stops it");
                }
                handed[0] = handed[0] == null ? HandoffService.warmedUp(context.environment()) : handed[0];
                return new Daemon.Opened(passes(queue), files, handed[0], wiring::close);
            } catch (RuntimeException | Error e) {
                wiring.close();
                throw e;
            }
        }, every, pass -> {
            print(pass, false);
            return true;
        }, this::reloadWanted);
        return ExitCodes.ok();
    }

    private Passes passes(Queue queue) {
        return noNotify ? queue.passes() : queue.passes(context.environment());
    }

    /**
     * Whether the daemon should start again on its configuration, edited since it was read
     * (nodes added or removed, notify channels, retention): only when the new files load. One
     * that does not is reported once and the daemon keeps the configuration it has.
     */
    private boolean reloadWanted(ConfigWatch files) {
        String changed = files.changed();
        if (changed == null) {
            return false;
        }
        try (Wiring fresh = new Wiring(new Context(context.environment(), context.out(),
                new java.io.PrintWriter(java.io.OutputStream.nullOutputStream()), false))) {
            fresh.config();
        } catch (dev.nvidb.error.NvidbException e) {
            context.err().println("nvidb: queue daemon: " + changed + " changed but cannot be used: "
                    + Printable.lines(e.getMessage()) + "; the daemon keeps the configuration it started with");
            context.err().flush();
            files.accept();
            return false;
        }
        context.err().println("nvidb: queue daemon: " + changed + " changed; reading the configuration again");
        context.err().flush();
        return true;
    }

    private void print(DaemonPass pass, boolean always) {
        if (options.json) {
            context.out().println(always ? Json.write(DaemonText.document(pass)) : Json.line(DaemonText.document(pass)));
        } else {
            DaemonText.lines(pass, always).forEach(context.out()::println);
        }
        context.out().flush();
    }
}
