package dev.nvidb.app;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.config.LogConfig;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.history.GpuLog;
import dev.nvidb.history.Sampler;
import dev.nvidb.monitor.Prober;
import dev.nvidb.node.LocalHost;
import dev.nvidb.node.Node;
import dev.nvidb.node.ResidentAgents;
import dev.nvidb.output.Printable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One session of {@code nvidb log}: started, sampled into the GPU history until its duration ends
 * or Ctrl-C, ended once, by the command's thread or by a signal's shutdown (the probes in flight
 * are recorded for up to two seconds, the session gets its end time). Progress goes to stderr.
 */
public final class LogSession {

    /** How long a stopping run waits for probes in flight. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(2);
    /** How often old samples are removed while logging. */
    private static final Duration PRUNE_EVERY = Duration.ofHours(1);

    private final GpuLog log;
    private final List<Node> nodes;
    private final Sampler sampler;
    private final long session;
    private final Instant started;
    private final int retentionDays;
    private final String shown;
    private final Duration duration;
    private final PrintWriter err;
    private boolean ended;

    /**
     * Records one session with the wiring's settings: this machine, or the servers too
     * ({@code remote}; null: {@code basic.remote}), every {@code interval} (null: {@code log.interval}),
     * into {@code dbPath} (null: {@code log.db_path}), for {@code duration} (null: until Ctrl-C).
     */
    public static void record(Wiring wiring, Boolean remote, Duration interval, String dbPath, Duration duration,
                              PrintWriter err) {
        wiring.withoutPrompts();
        NvidbConfig config = wiring.config();
        LogConfig settings = config.log();
        List<Node> nodes = wiring.monitorNodes(remote != null ? remote : config.basic().remote());
        Duration every = interval != null ? interval : Duration.ofSeconds(settings.intervalSeconds());
        Path file = dbPath != null ? config.home().expand(dbPath) : settings.dbPath();
        try (ResidentAgents residents = new ResidentAgents(AgentScript.bundled());
             GpuLog log = GpuLog.open(file)) {
            Prober prober = new Prober(AgentScript.bundled(), wiring.nodeTimeout(), config.queue().jobRoot(), residents);
            new LogSession(log, nodes, prober, every, settings.retentionDays(), config.home().display(file), duration, err)
                    .run();
        }
    }

    /**
     * @param shown    the log's file as shown to the user
     * @param duration how long to sample, or null: until Ctrl-C
     * @param err      where its lines go
     */
    private LogSession(GpuLog log, List<Node> nodes, Prober prober, Duration every, int retentionDays, String shown,
                       Duration duration, PrintWriter err) {
        this.duration = duration;
        this.err = err;
        this.log = log;
        this.nodes = nodes;
        this.retentionDays = retentionDays;
        this.shown = shown;
        this.started = Instant.now();
        List<String> names = nodes.stream().map(Node::name).toList();
        this.session = log.startSession(started, every, LocalHost.shortName(), ProcessHandle.current().pid(), names);
        this.sampler = new Sampler(log, session, nodes, prober::probe, every, Clock.systemUTC(), change -> {
            if (change.answering()) {
                err.println("nvidb log: " + change.node() + " answers again");
            } else {
                String failure = Printable.of(change.failure());
                err.println("nvidb log: " + (failure.startsWith(change.node() + " ") ? ""
                        : change.node() + ": ") + failure + " (recorded; retrying with back-off)");
            }
            err.flush();
        });
        err.println("nvidb log: session " + session + ": sampling " + names.size()
                + (names.size() == 1 ? " node (" : " nodes (") + String.join(", ", names) + ") every "
                + seconds(every) + " into " + shown + "; " + (duration == null ? "Ctrl-C stops"
                : "stopping after " + seconds(duration)));
        err.flush();
    }

    /** Samples until the duration ends, or Ctrl-C (thrown: interrupted, the session saved). */
    private void run() {
        Thread hook = new Thread(() -> end("interrupted"), "log-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            prune();
            sampler.start();
            long deadline = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
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
            err.println("nvidb log: " + Printable.of(String.valueOf(e.getMessage())));
        }
        Duration took = Duration.between(started, Instant.now());
        err.println("nvidb log: session " + session + " ended (" + reason.replaceFirst(":.*", "") + "): "
                + sampler.recorded() + (sampler.recorded() == 1 ? " sample of " : " samples of ") + nodes.size() + (nodes.size() == 1 ? " node" : " nodes")
                + (sampler.failed() > 0 ? " (" + sampler.failed() + " not answered)" : "") + " in "
                + seconds(took.withNanos(0)) + "; saved in " + shown);
        err.flush();
    }

    private void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedRun();
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
