package dev.nvidb.tui.monitor;

import dev.nvidb.config.ViewMode;
import dev.nvidb.tui.Frame;
import dev.nvidb.tui.Input;
import java.util.List;
import java.util.Optional;

/**
 * What each key and click does to the {@link MonitorState}, given the {@link MonitorModel} on
 * screen. The key map is the seed's: v d s f g u t p for the layout, Enter/l/→ and h/← and Tab
 * for focus, j k PgUp PgDn Home End to move, / o O + - [ ] for the process pane, i T K to arm a
 * signal (a second identical press or Enter within 5 s sends it, Esc cancels), ? for help,
 * a and c to expand and collapse nodes, q to quit.
 */
public final class MonitorKeys {

    private MonitorKeys() {
    }

    /** Acts on {@code input}; false when the session should end. */
    public static boolean handle(MonitorState state, MonitorModel model, Input input, Frame shown) {
        if (state.help()) {
            return closeHelp(state, input, shown);
        }
        if (input.kind() == Input.Kind.CLICK) {
            return click(state, model, input, shown);
        }
        if (input.kind() == Input.Kind.WHEEL_UP || input.kind() == Input.Kind.WHEEL_DOWN) {
            wheel(state, model, input, shown);
            return true;
        }
        if (input.kind() == Input.Kind.RESIZE) {
            return true;
        }
        if (state.editingFilter() && editFilter(state, model, input)) {
            return true;
        }
        MonitorState.Armed armed = state.armed();
        if (armed != null) {
            if (confirms(armed, input)) {
                state.fire(armed.request());
                return true;
            }
            state.disarm();
            state.notice(armed.request().signal().label() + " cancelled", false);
            if (input.kind() == Input.Kind.ESCAPE) {
                return true;
            }
        }
        return key(state, model, input, shown);
    }

    private static boolean confirms(MonitorState.Armed armed, Input input) {
        return input.kind() == Input.Kind.ENTER || input.is(armed.request().signal().key());
    }

    private static boolean closeHelp(MonitorState state, Input input, Frame shown) {
        boolean close = input.is('?') || input.is('q') || input.kind() == Input.Kind.ESCAPE
                || input.kind() == Input.Kind.CLICK
                && shown.targetAt(input.column(), input.row()).filter(Target.Help.class::isInstance).isPresent();
        if (close) {
            state.help(false);
        }
        return true;
    }

    private static boolean key(MonitorState state, MonitorModel model, Input input, Frame shown) {
        int page = Math.max(1, shown == null ? 10 : shown.lines().size() / 2);
        ViewSettings view = state.view();
        switch (input.kind()) {
            case UP -> move(state, model, -1);
            case DOWN -> move(state, model, 1);
            case PAGE_UP -> move(state, model, -page);
            case PAGE_DOWN -> move(state, model, page);
            case HOME -> move(state, model, -1_000_000);
            case END -> move(state, model, 1_000_000);
            case LEFT -> state.focus(MonitorState.Focus.GPUS);
            case RIGHT, ENTER -> enter(state, model, input.kind() == Input.Kind.ENTER);
            case TAB, BACK_TAB -> {
                if (state.paneVisible()) {
                    state.focus(state.focus() == MonitorState.Focus.GPUS ? MonitorState.Focus.PROCESSES
                            : MonitorState.Focus.GPUS);
                }
            }
            case F6 -> cycleSort(state);
            case ESCAPE -> {
                if (!state.processFilter().isEmpty()) {
                    state.filter("");
                    state.notice("process filter cleared", false);
                }
            }
            case CHAR -> {
                return character(state, model, input.codePoint(), view);
            }
            default -> {
                // other keys do nothing here
            }
        }
        return true;
    }

    private static boolean character(MonitorState state, MonitorModel model, int c, ViewSettings view) {
        switch (c) {
            case 'q' -> {
                return false;
            }
            case '?' -> state.help(true);
            case 'v' -> state.toggleMode();
            case 'd' -> {
                state.change(view.withDetail(!view.detail()));
                if (view.mode() == ViewMode.PER_NODE) {
                    state.notice("detailed cards are a unified-view layout: press v to see them", false);
                }
            }
            case 's' -> state.change(view.withSort(view.sort().next()));
            case 'f' -> state.change(view.withFilter(view.filter().next()));
            case 'g' -> state.change(view.withGroup(!view.group()));
            case 'u' -> state.change(view.withShowUnsupported(!view.showUnsupported()));
            case 't' -> state.change(view.withHistory(!view.history()));
            case 'p' -> {
                boolean show = !state.paneVisible();
                state.change(view.withProcessPane(show));
                if (!show) {
                    state.focus(MonitorState.Focus.GPUS);
                }
            }
            case 'j' -> move(state, model, 1);
            case 'k' -> move(state, model, -1);
            case 'l' -> enter(state, model, false);
            case ' ' -> enter(state, model, true);
            case 'h' -> state.focus(MonitorState.Focus.GPUS);
            case '/' -> {
                state.openPane();
                state.focus(MonitorState.Focus.PROCESSES);
                state.editFilter(true);
            }
            case 'o' -> cycleSort(state);
            case 'O' -> state.sortProcesses(state.processSort(), !state.processReversed());
            case '+' -> state.processRows(state.processRows() + 1);
            case '-' -> state.processRows(state.processRows() - 1);
            case '[' -> state.commandPage(state.commandPage() - 1);
            case ']' -> state.commandPage(state.commandPage() + 1);
            case 'a' -> state.expandAll(model.nodes(), true);
            case 'c' -> state.expandAll(model.nodes(), false);
            default -> ProcessSignal.forKey(c).ifPresent(signal -> signalKey(state, model, signal));
        }
        return true;
    }

    /** Enter, Space, l, →: on a node of the per-node view (Enter/Space) toggle it; on a GPU open its processes. */
    private static void enter(MonitorState state, MonitorModel model, boolean toggles) {
        MonitorModel.Item item = model.selectedItem();
        if (item == null || state.focus() == MonitorState.Focus.PROCESSES) {
            return;
        }
        if (item.isNode()) {
            if (toggles && state.view().mode() == ViewMode.PER_NODE) {
                state.toggleNode(item.node());
            }
            return;
        }
        state.openPane();
        state.focus(MonitorState.Focus.PROCESSES);
    }

    private static void move(MonitorState state, MonitorModel model, int by) {
        if (state.focus() == MonitorState.Focus.PROCESSES && state.paneVisible()) {
            state.selectProcess(model.processes(), model.selectedProcess() + by);
        } else {
            state.selectItem(model.items(), model.selected() + by);
        }
    }

    private static void cycleSort(MonitorState state) {
        List<String> cycle = ProcessColumns.SORT_CYCLE;
        int at = cycle.indexOf(state.processSort());
        state.sortProcesses(cycle.get((at + 1) % cycle.size()), false);
    }

    /** i, T, K: the first press in the GPU pane moves focus; in the process pane it arms. */
    private static void signalKey(MonitorState state, MonitorModel model, ProcessSignal signal) {
        if (state.focus() != MonitorState.Focus.PROCESSES) {
            state.openPane();
            state.focus(MonitorState.Focus.PROCESSES);
            state.notice("process pane focused: press " + signal.key() + " again to arm " + signal.label(), false);
            return;
        }
        ProcessRow row = model.selectedProcessRow();
        if (row == null) {
            state.notice("no process selected", true);
            return;
        }
        state.arm(new SignalRequest(signal, row.gpu().node().name(), row.process().pid(), row.process().name()));
    }

    /** While editing the filter: characters type, Backspace deletes, Enter keeps, Esc clears. */
    private static boolean editFilter(MonitorState state, MonitorModel model, Input input) {
        switch (input.kind()) {
            case CHAR -> state.filter(state.processFilter() + new String(Character.toChars(input.codePoint())));
            case BACKSPACE -> {
                String text = state.processFilter();
                state.filter(text.isEmpty() ? text : text.substring(0, text.offsetByCodePoints(text.length(), -1)));
            }
            case ENTER -> state.editFilter(false);
            case ESCAPE -> {
                state.filter("");
                state.editFilter(false);
            }
            case UP -> state.selectProcess(model.processes(), model.selectedProcess() - 1);
            case DOWN -> state.selectProcess(model.processes(), model.selectedProcess() + 1);
            default -> {
                return false;
            }
        }
        return true;
    }

    private static boolean click(MonitorState state, MonitorModel model, Input input, Frame shown) {
        Optional<Object> target = shown == null ? Optional.empty() : shown.targetAt(input.column(), input.row());
        if (target.isEmpty()) {
            return true;
        }
        Object hit = target.get();
        if (hit instanceof Target.Key key) {
            return handle(state, model, Input.character(key.key()), shown);
        }
        MonitorState.Armed armed = state.armed();
        if (armed != null) {
            state.disarm();
            state.notice(armed.request().signal().label() + " cancelled", false);
        }
        if (hit instanceof Target.Item item) {
            int index = indexOfItem(model, item.key());
            boolean again = index == model.selected() && state.focus() == MonitorState.Focus.GPUS;
            state.focus(MonitorState.Focus.GPUS);
            state.selectItem(model.items(), index);
            MonitorModel.Item clicked = index >= 0 ? model.items().get(index) : null;
            if (again && clicked != null && clicked.isNode() && state.view().mode() == ViewMode.PER_NODE) {
                state.toggleNode(clicked.node());
            }
        } else if (hit instanceof Target.Process process) {
            for (int i = 0; i < model.processes().size(); i++) {
                if (model.processes().get(i).key().equals(process.key())) {
                    state.selectProcess(model.processes(), i);
                }
            }
            state.focus(MonitorState.Focus.PROCESSES);
        } else if (hit instanceof Target.SortBy sort) {
            boolean same = sort.column().equals(state.processSort());
            state.sortProcesses(sort.column(), same && !state.processReversed());
        }
        return true;
    }

    private static int indexOfItem(MonitorModel model, String key) {
        for (int i = 0; i < model.items().size(); i++) {
            if (model.items().get(i).key().equals(key)) {
                return i;
            }
        }
        return -1;
    }

    private static void wheel(MonitorState state, MonitorModel model, Input input, Frame shown) {
        int by = input.kind() == Input.Kind.WHEEL_UP ? -1 : 1;
        Object hit = shown == null ? null : shown.targetAt(input.column(), input.row()).orElse(null);
        if (hit instanceof Target.Process || hit instanceof Target.ProcessPane || hit instanceof Target.SortBy) {
            state.selectProcess(model.processes(), model.selectedProcess() + by);
        } else if (hit instanceof Target.Item || hit instanceof Target.GpuPane) {
            state.selectItem(model.items(), model.selected() + by);
        }
    }
}
