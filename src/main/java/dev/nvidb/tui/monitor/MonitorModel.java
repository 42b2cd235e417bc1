package dev.nvidb.tui.monitor;

import dev.nvidb.config.ViewMode;
import dev.nvidb.model.GpuSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What the screen shows at one moment, derived from the nodes' feeds and the session state and
 * nothing else: the selectable items of the GPU/node pane in display order, the selected GPU,
 * its processes after the live filter and sort, and the totals of the title. Keys and the
 * renderer both work from it, so what a key acts on is what is drawn.
 *
 * @param nodes             every node's feed
 * @param items             the GPU/node pane's selectable items, in display order
 * @param selected          index of the selected item in {@code items}, -1 when there is none
 * @param processes         the selected GPU's processes, filtered and sorted
 * @param selectedProcess   index in {@code processes}, -1 when there is none
 * @param unfilteredCount   how many processes the selected GPU has before the filter
 * @param hiddenByFilter    GPUs the unified filter hides
 * @param hiddenWithoutGpus nodes without GPUs left out until {@code u}
 * @param grouped           unified rows are drawn in per-node blocks
 */
public record MonitorModel(List<NodeFeed> nodes, List<Item> items, int selected, List<ProcessRow> processes,
                           int selectedProcess, int unfilteredCount, int hiddenByFilter, int hiddenWithoutGpus,
                           boolean grouped) {

    /** A selectable row of the GPU/node pane: a node (per-node view, or a failed node) or a GPU. */
    public record Item(String key, NodeFeed node, GpuRow gpu) {
        public boolean isNode() {
            return gpu == null;
        }
    }

    /** The model for {@code nodes} as {@code state} wants them shown. */
    public static MonitorModel of(List<NodeFeed> nodes, MonitorState state) {
        ViewSettings view = state.view();
        List<Item> items = new ArrayList<>();
        int hiddenWithoutGpus = 0;
        int hiddenByFilter = 0;
        boolean grouped = false;
        if (view.mode() == ViewMode.PER_NODE) {
            for (NodeFeed node : nodes) {
                if (node.withoutGpus() && !view.showUnsupported()) {
                    hiddenWithoutGpus++;
                    continue;
                }
                items.add(new Item(node.name(), node, null));
                if (state.expanded(node)) {
                    node.latest().snapshot().gpus().forEach(gpu -> items.add(gpuItem(node, gpu)));
                }
            }
        } else if (view.filter() == GpuFilter.ERRORS) {
            nodes.stream().filter(node -> node.latest() == null || node.down()).forEach(node -> items.add(
                    new Item(node.name(), node, null)));
            hiddenByFilter = (int) nodes.stream().filter(NodeFeed::answered)
                    .mapToLong(node -> node.latest().snapshot().gpus().size()).sum();
        } else {
            List<GpuRow> rows = new ArrayList<>();
            for (NodeFeed node : nodes) {
                if (node.withoutGpus()) {
                    hiddenWithoutGpus += view.showUnsupported() ? 0 : 1;
                    continue;
                }
                if (!node.answered()) {
                    continue;
                }
                for (GpuSnapshot gpu : node.latest().snapshot().gpus()) {
                    if (view.filter().shows(gpu)) {
                        rows.add(new GpuRow(node, gpu));
                    } else {
                        hiddenByFilter++;
                    }
                }
            }
            Comparator<GpuRow> order = view.sort().comparator();
            rows.stream().sorted(order).forEach(row -> items.add(new Item(row.key(), row.node(), row)));
            grouped = view.group() && view.sort() == GpuOrder.NODE && !view.detail();
        }
        int selected = state.resolveItem(items);
        GpuRow gpu = selected >= 0 ? items.get(selected).gpu() : null;
        List<ProcessRow> processes = List.of();
        int unfiltered = 0;
        if (gpu != null) {
            List<ProcessRow> all = gpu.gpu().processes().stream().map(process -> new ProcessRow(gpu, process)).toList();
            unfiltered = all.size();
            processes = ProcessColumns.sort(all.stream().filter(row -> row.matches(state.processFilter())).toList(),
                    state.processSort(), state.processReversed());
        }
        int selectedProcess = state.resolveProcess(processes);
        return new MonitorModel(List.copyOf(nodes), List.copyOf(items), selected, processes, selectedProcess,
                unfiltered, hiddenByFilter, hiddenWithoutGpus, grouped);
    }

    private static Item gpuItem(NodeFeed node, GpuSnapshot gpu) {
        GpuRow row = new GpuRow(node, gpu);
        return new Item(row.key(), node, row);
    }

    /** The selected item, or null. */
    public Item selectedItem() {
        return selected >= 0 ? items.get(selected) : null;
    }

    /** The selected GPU, or null when a node (or nothing) is selected. */
    public GpuRow selectedGpu() {
        Item item = selectedItem();
        return item == null ? null : item.gpu();
    }

    /** The selected process, or null. */
    public ProcessRow selectedProcessRow() {
        return selectedProcess >= 0 ? processes.get(selectedProcess) : null;
    }

    /** Every GPU of every node that answered. */
    public List<GpuRow> allGpus() {
        List<GpuRow> rows = new ArrayList<>();
        for (NodeFeed node : nodes) {
            if (node.answered()) {
                node.latest().snapshot().gpus().forEach(gpu -> rows.add(new GpuRow(node, gpu)));
            }
        }
        return rows;
    }
}
