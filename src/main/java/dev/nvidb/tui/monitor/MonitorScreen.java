package dev.nvidb.tui.monitor;

import dev.nvidb.tui.Frame;
import dev.nvidb.tui.Input;
import dev.nvidb.tui.TuiSession;
import java.time.Clock;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The monitor as a {@link TuiSession.Screen}: the glue between the probing workers
 * ({@link MonitorSource}), the session state, the history and the renderer. Everything here runs
 * on the input thread; what comes from other threads (probes, signal outcomes) is only read
 * from the source or taken from a queue, and announced through {@link #version()}.
 */
public final class MonitorScreen implements TuiSession.Screen {

    private final MonitorSource source;
    private final MonitorState state;
    private final Clock clock;
    private final History history = new History();
    private final Queue<SignalOutcome> outcomes = new ConcurrentLinkedQueue<>();
    private final AtomicLong arrivals = new AtomicLong();

    /**
     * @param source where the data comes from and signals go
     * @param view   the layout to open with
     * @param saver  writes the layout back ({@code view:} of config.yml); called on the input thread
     * @param clock  for the signal confirmation window and the retry countdowns
     */
    public MonitorScreen(MonitorSource source, ViewSettings view, ViewSaver saver, Clock clock) {
        this.source = source;
        this.clock = clock;
        this.state = new MonitorState(view, clock, new MonitorState.Effects() {
            @Override
            public void signal(SignalRequest request) {
                source.signal(request, outcome -> {
                    outcomes.add(outcome);
                    arrivals.incrementAndGet();
                });
            }

            @Override
            public void save(ViewSettings settings) {
                try {
                    saver.save(settings);
                } catch (RuntimeException e) {
                    state().notice("layout not saved: " + e.getMessage(), true);
                }
            }
        });
    }

    /** Writes the layout back; a failure is shown, never fatal. */
    @FunctionalInterface
    public interface ViewSaver {
        void save(ViewSettings view);
    }

    MonitorState state() {
        return state;
    }

    History history() {
        return history;
    }

    @Override
    public Frame render(int width, int height) {
        drainOutcomes();
        MonitorModel model = model();
        return MonitorRenderer.render(model, state, history, width, height, clock.instant());
    }

    @Override
    public boolean handle(Input input, Frame shown) {
        drainOutcomes();
        return MonitorKeys.handle(state, model(), input, shown);
    }

    /**
     * The probes and outcomes that arrived, plus a tick per second while something on screen
     * counts down (an armed signal, a node's retry), so the countdown moves without a key.
     */
    @Override
    public long version() {
        long seconds = clock.millis() / 1000;
        boolean counting = state.armed() != null
                || source.nodes().stream().anyMatch(node -> node.retryAt() != null);
        return source.version() * 1_000_003L + arrivals.get() * 7919L + (counting ? seconds : 0);
    }

    private MonitorModel model() {
        var nodes = source.nodes();
        history.record(nodes);
        return MonitorModel.of(nodes, state);
    }

    private void drainOutcomes() {
        SignalOutcome outcome;
        while ((outcome = outcomes.poll()) != null) {
            state.report(outcome);
        }
    }
}
