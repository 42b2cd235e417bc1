package dev.nvidb.app;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.ViewWriter;
import dev.nvidb.error.UsageException;
import dev.nvidb.monitor.Backoff;
import dev.nvidb.monitor.LiveProbes;
import dev.nvidb.monitor.ProcessSignals;
import dev.nvidb.monitor.Prober;
import dev.nvidb.node.Node;
import dev.nvidb.node.ResidentAgents;
import dev.nvidb.tui.TuiSession;
import dev.nvidb.tui.monitor.MonitorScreen;
import dev.nvidb.tui.monitor.MonitorSource;
import dev.nvidb.tui.monitor.NodeFeed;
import dev.nvidb.tui.monitor.SignalOutcome;
import dev.nvidb.tui.monitor.SignalRequest;
import dev.nvidb.tui.monitor.ViewSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The interactive monitor ({@code nvidb}, {@code nvidb --remote}): wires the nodes, one resident
 * agent per node, a probing worker per node, the signal sender and the {@code view:} writer to the
 * monitor screen, and runs it in a full-screen session that restores the terminal however it ends.
 */
public final class LiveMonitor {

    private LiveMonitor() {
    }

    /** {@code nvidb --once}: one probe of the monitor's nodes, all at once. */
    public static List<dev.nvidb.model.ProbeResult> once(Wiring wiring, boolean withServers) {
        return wiring.prober().probeAll(wiring.monitorNodes(withServers));
    }

    /**
     * Whether a probe succeeded. With the servers, every node must have answered; a node
     * that answered without a usable NVIDIA driver says so in its row ({@code no_gpu}) and
     * does not fail the run, so a laptop without a GPU can watch its servers. Alone, this
     * machine must have answered with GPU data.
     */
    public static boolean answered(List<dev.nvidb.model.ProbeResult> results, boolean withServers) {
        return results.stream().allMatch(result -> result.snapshot() != null && (withServers || !result.degraded()));
    }

    /** Runs the monitor until q (0) or Ctrl-C (130). */
    public static int run(Wiring.Front context, Wiring wiring, boolean withServers, Duration interval) {
        if (!context.terminal()) {
            throw notATerminal();
        }
        wiring.withoutPrompts();
        NvidbConfig config = wiring.config();
        List<Node> nodes = wiring.monitorNodes(withServers);
        Duration timeout = wiring.nodeTimeout();
        ExecutorService signalling = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "monitor-signals");
            thread.setDaemon(true);
            return thread;
        });
        try (ResidentAgents residents = new ResidentAgents(AgentScript.bundled());
             LiveProbes probes = new LiveProbes(nodes, new Prober(AgentScript.bundled(), timeout,
                     config.queue().jobRoot(), residents).withClaimsDirs(wiring.claimsDirs())::probe, new Backoff(interval), Clock.systemUTC())) {
            MonitorSource source = new Source(probes, new ProcessSignals(timeout), signalling);
            ViewWriter writer = new ViewWriter(config.home());
            ViewSettings[] saved = {ViewSettings.from(config.view())};
            MonitorScreen screen = new MonitorScreen(source, saved[0], view -> {
                writer.write(config.home().configYml(), view.changedSince(saved[0]));
                saved[0] = view;
            }, Clock.systemUTC());
            try (TuiSession session = TuiSession.open(config.view().mouse())) {
                probes.start();
                return session.run(screen);
            }
        } catch (TuiSession.NotATerminal e) {
            throw notATerminal();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            signalling.shutdownNow();
        }
    }

    private static UsageException notATerminal() {
        return new UsageException("the interactive monitor needs a terminal; use 'nvidb --once' for a one-shot report",
                "add --json for a machine-readable one");
    }

    /** The probing workers and the signal sender as the screen sees them. */
    private record Source(LiveProbes probes, ProcessSignals signals, ExecutorService signalling)
            implements MonitorSource {

        @Override
        public List<NodeFeed> nodes() {
            return probes.nodes().stream().map(state -> new NodeFeed(state.node().name(),
                    state.address() == null ? "" : state.address(),
                    state.latest(), state.sequence(), state.retryAt())).toList();
        }

        @Override
        public long version() {
            return probes.version();
        }

        @Override
        public void signal(SignalRequest request, Consumer<SignalOutcome> done) {
            signalling.execute(() -> {
                SignalOutcome outcome = probes.node(request.node())
                        .map(node -> {
                            ProcessSignals.Outcome sent = signals.send(node, request.pid(), request.name(),
                                    request.signal().killName());
                            return new SignalOutcome(request, sent.sent(), sent.message());
                        })
                        .orElse(new SignalOutcome(request, false, "no node called " + request.node()));
                done.accept(outcome);
                probes.probeSoon(request.node());
            });
        }
    }
}
