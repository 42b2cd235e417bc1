package dev.nvidb.tui.monitor;

import dev.nvidb.config.ViewConfig;
import dev.nvidb.config.ViewMode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The layout toggles that outlive a session ({@code v d s f g u t p}), read from and written back
 * to the {@code view:} section of {@code config.yml}. Focus, selection, the process filter and
 * sort, row counts and help are not part of it: they are the session's own.
 *
 * @param mode            per-node blocks or one unified table
 * @param detail          unified view as detailed cards
 * @param sort            unified GPU order
 * @param filter          unified GPU filter
 * @param group           unified rows grouped per node
 * @param showUnsupported show nodes without GPUs
 * @param history         show sparklines
 * @param processPane     show the selected GPU's processes
 */
public record ViewSettings(ViewMode mode, boolean detail, GpuOrder sort, GpuFilter filter, boolean group,
                           boolean showUnsupported, boolean history, boolean processPane) {

    /** What a first run opens with. */
    public static ViewSettings defaults() {
        return new ViewSettings(ViewMode.PER_NODE, false, GpuOrder.NODE, GpuFilter.ALL, true, false, false, false);
    }

    /** The saved layout, each missing key at its default. */
    public static ViewSettings from(ViewConfig view) {
        ViewSettings d = defaults();
        boolean detail = view.detail() != null ? view.detail()
                : view.singleLine() != null ? !view.singleLine() : d.detail();
        return new ViewSettings(
                view.mode() != null ? view.mode() : d.mode(),
                detail,
                view.sort() != null ? GpuOrder.parse(view.sort()) : d.sort(),
                view.filter() != null ? GpuFilter.parse(view.filter()) : d.filter(),
                view.group() != null ? view.group() : d.group(),
                view.showUnsupported() != null ? view.showUnsupported() : d.showUnsupported(),
                view.history() != null ? view.history() : d.history(),
                view.processPane() != null ? view.processPane() : d.processPane());
    }

    /** The {@code view:} keys and their YAML values, in the order config.example.yml documents them. */
    public Map<String, String> toViewKeys() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("mode", mode.key());
        keys.put("detail", Boolean.toString(detail));
        keys.put("sort", sort.key());
        keys.put("filter", filter.key());
        keys.put("group", Boolean.toString(group));
        keys.put("show_unsupported", Boolean.toString(showUnsupported));
        keys.put("history", Boolean.toString(history));
        keys.put("process_pane", Boolean.toString(processPane));
        keys.put("single_line", Boolean.toString(!detail));
        return keys;
    }

    /** The keys whose values differ from {@code before}'s (what a toggle must write back). */
    public Map<String, String> changedSince(ViewSettings before) {
        Map<String, String> now = toViewKeys();
        Map<String, String> then = before.toViewKeys();
        Map<String, String> changed = new LinkedHashMap<>();
        now.forEach((key, value) -> {
            if (!value.equals(then.get(key))) {
                changed.put(key, value);
            }
        });
        return changed;
    }

    ViewSettings withMode(ViewMode value) {
        return new ViewSettings(value, detail, sort, filter, group, showUnsupported, history, processPane);
    }

    ViewSettings withDetail(boolean value) {
        return new ViewSettings(mode, value, sort, filter, group, showUnsupported, history, processPane);
    }

    ViewSettings withSort(GpuOrder value) {
        return new ViewSettings(mode, detail, value, filter, group, showUnsupported, history, processPane);
    }

    ViewSettings withFilter(GpuFilter value) {
        return new ViewSettings(mode, detail, sort, value, group, showUnsupported, history, processPane);
    }

    ViewSettings withGroup(boolean value) {
        return new ViewSettings(mode, detail, sort, filter, value, showUnsupported, history, processPane);
    }

    ViewSettings withShowUnsupported(boolean value) {
        return new ViewSettings(mode, detail, sort, filter, group, value, history, processPane);
    }

    ViewSettings withHistory(boolean value) {
        return new ViewSettings(mode, detail, sort, filter, group, showUnsupported, value, processPane);
    }

    ViewSettings withProcessPane(boolean value) {
        return new ViewSettings(mode, detail, sort, filter, group, showUnsupported, history, value);
    }
}
