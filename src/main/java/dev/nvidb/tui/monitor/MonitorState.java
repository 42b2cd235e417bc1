package dev.nvidb.tui.monitor;

import dev.nvidb.config.ViewMode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The monitor session's state: the saved layout, focus, selections, the live process filter and
 * sort, an armed signal and the last notice. Keys and clicks change it through {@link MonitorKeys};
 * what it must do outside (send a signal, save the layout) goes through {@link Effects}, and time
 * comes from an injected clock, so every behaviour is testable without a terminal or a node.
 */
public final class MonitorState {

    /** How long an armed signal waits for its confirming press. */
    public static final Duration CONFIRM_WINDOW = Duration.ofSeconds(5);
    /** Process rows shown by default, and the most {@code +} allows. */
    static final int DEFAULT_PROCESS_ROWS = 6;
    static final int MAX_PROCESS_ROWS = 12;

    /** What the state asks of the world. */
    public interface Effects {
        /** Sends a confirmed signal (off the input thread). */
        void signal(SignalRequest request);

        /** Writes the layout back to {@code view:}. */
        void save(ViewSettings view);
    }

    /** Which pane the keys move in. */
    public enum Focus { GPUS, PROCESSES }

    /** A signal waiting for its second press. */
    public record Armed(SignalRequest request, Instant at) {
    }

    /** A line for the user: what happened last. */
    public record Notice(String text, boolean error) {
    }

    private final Clock clock;
    private final Effects effects;
    private ViewSettings view;
    private Focus focus = Focus.GPUS;
    private String itemKey;
    private int itemIndex;
    private String processKey;
    private int processIndex;
    private String processFilter = "";
    private boolean editingFilter;
    private String processSort = ProcessColumns.VRAM;
    private boolean processReversed;
    private int processRows = DEFAULT_PROCESS_ROWS;
    private int commandPage;
    private boolean paneOpened;
    private Armed armed;
    private Notice notice;
    private boolean help;
    private final Set<String> collapsedNodes = new HashSet<>();

    public MonitorState(ViewSettings view, Clock clock, Effects effects) {
        this.view = view;
        this.clock = clock;
        this.effects = effects;
    }

    public ViewSettings view() {
        return view;
    }

    public Focus focus() {
        return focus;
    }

    public String processFilter() {
        return processFilter;
    }

    public boolean editingFilter() {
        return editingFilter;
    }

    public String processSort() {
        return processSort;
    }

    public boolean processReversed() {
        return processReversed;
    }

    public int processRows() {
        return processRows;
    }

    public int commandPage() {
        return commandPage;
    }

    public boolean help() {
        return help;
    }

    public Notice notice() {
        return notice;
    }

    /** The armed signal, if its window is still open. */
    public Armed armed() {
        if (armed != null && Duration.between(armed.at(), clock.instant()).compareTo(CONFIRM_WINDOW) > 0) {
            armed = null;
        }
        return armed;
    }

    /** Seconds left to confirm the armed signal (rounded up), 0 when none is armed. */
    public long armedSecondsLeft() {
        Armed current = armed();
        if (current == null) {
            return 0;
        }
        long millis = CONFIRM_WINDOW.minus(Duration.between(current.at(), clock.instant())).toMillis();
        return Math.max(1, (millis + 999) / 1000);
    }

    /** Whether the process pane is drawn: asked for with {@code p}, opened by Enter, or focused. */
    public boolean paneVisible() {
        return view.processPane() || paneOpened || focus == Focus.PROCESSES;
    }

    /** Whether a node's GPUs are listed in the per-node view (nodes with GPUs are, by default). */
    public boolean expanded(NodeFeed node) {
        if (!node.answered() || node.withoutGpus()) {
            return false;
        }
        if (collapsedNodes.contains(node.name())) {
            return false;
        }
        return true;
    }

    /** A signal's outcome, as it comes back from the node. */
    public void report(SignalOutcome outcome) {
        notice = new Notice(outcome.message(), !outcome.sent());
    }

    void notice(String text, boolean error) {
        notice = new Notice(text, error);
    }

    /** Index of the selected item in {@code items}: the one last selected, else the same position. */
    int resolveItem(List<MonitorModel.Item> items) {
        if (items.isEmpty()) {
            return -1;
        }
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).key().equals(itemKey)) {
                return i;
            }
        }
        return Math.max(0, Math.min(itemIndex, items.size() - 1));
    }

    int resolveProcess(List<ProcessRow> rows) {
        if (rows.isEmpty()) {
            return -1;
        }
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).key().equals(processKey)) {
                return i;
            }
        }
        return Math.max(0, Math.min(processIndex, rows.size() - 1));
    }

    // Changes, used by MonitorKeys.

    void selectItem(List<MonitorModel.Item> items, int index) {
        if (items.isEmpty()) {
            return;
        }
        int clamped = Math.max(0, Math.min(index, items.size() - 1));
        String key = items.get(clamped).key();
        if (!key.equals(itemKey)) {
            commandPage = 0;
            processIndex = 0;
            processKey = null;
        }
        itemIndex = clamped;
        itemKey = key;
    }

    void selectProcess(List<ProcessRow> rows, int index) {
        if (rows.isEmpty()) {
            return;
        }
        int clamped = Math.max(0, Math.min(index, rows.size() - 1));
        if (!rows.get(clamped).key().equals(processKey)) {
            commandPage = 0;
        }
        processIndex = clamped;
        processKey = rows.get(clamped).key();
    }

    void focus(Focus value) {
        focus = value;
    }

    void openPane() {
        paneOpened = true;
    }

    void change(ViewSettings next) {
        if (!next.equals(view)) {
            view = next;
            effects.save(next);
        }
        if (!view.processPane()) {
            paneOpened = false;
        }
    }

    void toggleNode(NodeFeed node) {
        if (expanded(node)) {
            collapsedNodes.add(node.name());
        } else {
            collapsedNodes.remove(node.name());
        }
    }

    void expandAll(List<NodeFeed> nodes, boolean expand) {
        for (NodeFeed node : nodes) {
            if (expand) {
                collapsedNodes.remove(node.name());
            } else {
                collapsedNodes.add(node.name());
            }
        }
    }

    void editFilter(boolean editing) {
        editingFilter = editing;
    }

    void filter(String text) {
        processFilter = text;
        processIndex = 0;
    }

    void sortProcesses(String column, boolean reversed) {
        processSort = column;
        processReversed = reversed;
    }

    void processRows(int rows) {
        processRows = Math.max(1, Math.min(MAX_PROCESS_ROWS, rows));
    }

    void commandPage(int page) {
        commandPage = Math.max(0, page);
    }

    void help(boolean open) {
        help = open;
    }

    void arm(SignalRequest request) {
        armed = new Armed(request, clock.instant());
    }

    void disarm() {
        armed = null;
    }

    void fire(SignalRequest request) {
        armed = null;
        notice = new Notice("sending " + request.describe() + " …", false);
        effects.signal(request);
    }

    boolean toggleMode() {
        change(view.withMode(view.mode() == ViewMode.PER_NODE ? ViewMode.UNIFIED : ViewMode.PER_NODE));
        return true;
    }
}
