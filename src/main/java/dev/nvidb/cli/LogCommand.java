package dev.nvidb.cli;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.app.Wiring;
import dev.nvidb.config.LogConfig;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.error.UsageException;
import dev.nvidb.history.GpuLog;
import dev.nvidb.history.Sampler;
import dev.nvidb.monitor.Prober;
import dev.nvidb.node.LocalHost;
import dev.nvidb.node.Node;
import dev.nvidb.node.ResidentAgents;
import dev.nvidb.output.Printable;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nvidb log}: samples every node's GPUs and processes into the GPU history until Ctrl-C
 * (or {@code --duration}), one session per run. A signal ends the session cleanly: the probes in
 * flight are recorded (for up to two seconds), the session gets its end time, the file is closed.
 */
@Command(name = "log", description = "Record GPU history (utilisation, memory, processes) into SQLite.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb log                          this machine, every 5 s, until Ctrl-C",
                "  nvidb log --remote --interval 10   every configured server too, every 10 s",
                "  nvidb log --db-path /data/gpus.db  somewhere else than ~/.nvidb/gpu_log.db",
                "  nvidb log --duration 3600          one hour, then stop",
                "",
                "Browse what was recorded with 'nvidb web'.", "Settings: the log: section of config.yml."})
final class LogCommand implements Callable<Integer> {

    /** How long a stopping run waits for probes in flight. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(2);
    /** How often old samples are removed while logging. */
    private static final Duration PRUNE_EVERY = Duration.ofHours(1);

    private final Context context;

    @Option(names = "--remote", negatable = true,
            description = "Include the servers in config.yml (default: basic.remote; --no-remote for this machine only).")
    Boolean remote;

    @Option(names = "--interval", paramLabel = "SEC", converter = NumberOption.Interval.class,
            description = "Seconds between two samples of a node (default: log.interval, 5).")
    Double interval;

    @Option(names = "--db-path", paramLabel = "PATH", description = "The GPU log to write (default: log.db_path, ~/.nvidb/gpu_log.db).")
    String dbPath;

    @Option(names = "--duration", paramLabel = "SEC", converter = NumberOption.Interval.class,
            description = "Stop after SEC seconds (default: run until Ctrl-C).")
    Double duration;

    @Option(names = "--verbose", description = "Show stack traces of internal errors.")
    boolean verbose;

    LogCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        if (interval != null && interval < 0.2) {
            throw new UsageException("--interval must be at least 0.2 seconds, got " + interval, "nvidb log --interval 5");
        }
        try (Wiring wiring = new Wiring(context)) {
            wiring.withoutPrompts();
            NvidbConfig config = wiring.config();
            LogConfig settings = config.log();
            boolean withServers = remote != null ? remote : config.basic().remote();
            List<Node> nodes = withServers
                    ? wiring.nodes().nodes(config.basic().includeLocal(), null, config.monitorServers())
                    : List.of(wiring.nodes().local(null));
            Duration every = interval != null ? Duration.ofMillis(Math.round(interval * 1000))
                    : Duration.ofSeconds(settings.intervalSeconds());
            Path file = dbPath != null ? config.home().expand(dbPath) : settings.dbPath();
            try (ResidentAgents residents = new ResidentAgents(AgentScript.bundled());
                 GpuLog log = GpuLog.open(file)) {
                Prober prober = new Prober(AgentScript.bundled(), wiring.nodeTimeout(), config.queue().jobRoot(), residents);
                return new Run(log, nodes, prober, every, settings.retentionDays(), config.home().display(file)).run();
            }
        }
    }

    /** One session: started, sampled, ended once, by the command's thread or by a signal's shutdown. */
    private final class Run {
        private final GpuLog log;
        private final List<Node> nodes;
        private final Sampler sampler;
        private final long session;
        private final Instant started;
        private final int retentionDays;
        private final String shown;
        private boolean ended;

        Run(GpuLog log, List<Node> nodes, Prober prober, Duration every, int retentionDays, String shown) {
            this.log = log;
            this.nodes = nodes;
            this.retentionDays = retentionDays;
            this.shown = shown;
            this.started = Instant.now();
            List<String> names = nodes.stream().map(Node::name).toList();
            this.session = log.startSession(started, every, LocalHost.shortName(), ProcessHandle.current().pid(), names);
            this.sampler = new Sampler(log, session, nodes, prober::probe, every, Clock.systemUTC(), change -> {
                if (change.answering()) {
                    context.err().println("nvidb log: " + change.node() + " answers again");
                } else {
                    String failure = Printable.of(change.failure());
                    context.err().println("nvidb log: " + (failure.startsWith(change.node() + " ") ? ""
                            : change.node() + ": ") + failure + " (recorded; retrying with back-off)");
                }
                context.err().flush();
            });
            context.err().println("nvidb log: session " + session + ": sampling " + names.size()
                    + (names.size() == 1 ? " node (" : " nodes (") + String.join(", ", names) + ") every "
                    + seconds(every) + " into " + shown + "; " + (duration == null ? "Ctrl-C stops"
                    : "stopping after " + seconds(Duration.ofMillis(Math.round(duration * 1000)))));
            context.err().flush();
        }

        int run() {
            Thread hook = new Thread(() -> end("interrupted"), "log-stop");
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                prune();
                sampler.start();
                long deadline = duration == null ? Long.MAX_VALUE
                        : System.nanoTime() + Math.round(duration * 1_000_000_000L);
                long nextPrune = System.nanoTime() + PRUNE_EVERY.toNanos();
                while (System.nanoTime() < deadline && sampler.writeFailure() == null) {
                    long wake = Math.min(deadline, nextPrune);
                    sleep(Math.min(200, Math.max(1, (wake - System.nanoTime()) / 1_000_000)));
                    if (System.nanoTime() >= nextPrune) {
                        prune();
                        nextPrune = System.nanoTime() + PRUNE_EVERY.toNanos();
                    }
                }
                if (sampler.writeFailure() != null) {
                    end("error: " + sampler.writeFailure().getMessage());
                    throw sampler.writeFailure();
                }
                end("duration");
                return ExitCodes.ok();
            } catch (InterruptedRun interrupted) {
                end("interrupted");
                throw new dev.nvidb.error.InterruptedByUser("interrupted: session " + session + " saved");
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // The hook is running or ran: it ended the session.
                }
            }
        }

        private void prune() {
            if (retentionDays > 0) {
                log.prune(Instant.now().minus(Duration.ofDays(retentionDays)), session);
            }
        }

        private synchronized void end(String reason) {
            if (ended) {
                return;
            }
            ended = true;
            sampler.stop(STOP_GRACE);
            try {
                log.endSession(session, Instant.now(), reason);
            } catch (RuntimeException e) {
                context.err().println("nvidb log: " + Printable.of(String.valueOf(e.getMessage())));
            }
            Duration took = Duration.between(started, Instant.now());
            context.err().println("nvidb log: session " + session + " ended (" + reason.replaceFirst(":.*", "") + "): "
                    + sampler.recorded() + (sampler.recorded() == 1 ? " sample of " : " samples of ") + nodes.size() + (nodes.size() == 1 ? " node" : " nodes")
                    + (sampler.failed() > 0 ? " (" + sampler.failed() + " not answered)" : "") + " in "
                    + seconds(took.withNanos(0)) + "; saved in " + shown);
            context.err().flush();
        }

        private void sleep(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedRun();
            }
        }
    }

    private static final class InterruptedRun extends RuntimeException {
        InterruptedRun() {
            super(null, null, false, false);
        }
    }

    private static String seconds(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 1000 != 0) {
            return millis / 1000.0 + " s";
        }
        long s = millis / 1000;
        if (s >= 3600) {
            return s / 3600 + "h" + String.format("%02dm", s % 3600 / 60);
        }
        if (s >= 60) {
            return s / 60 + "m" + String.format("%02ds", s % 60);
        }
        return s + " s";
    }
}
