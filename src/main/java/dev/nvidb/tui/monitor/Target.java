package dev.nvidb.tui.monitor;

/**
 * What a click on a region of the monitor's frame means. The renderer attaches these to the
 * cells it draws; {@link MonitorState} acts on the one under the mouse.
 */
public sealed interface Target {

    /** A row of the GPU/node pane (a node header, a GPU row or card). */
    record Item(String key) implements Target {
    }

    /** A row of the process table. */
    record Process(String key) implements Target {
    }

    /** A sortable column header of the process table. */
    record SortBy(String column) implements Target {
    }

    /** A button that does what a key does ({@code i}, {@code T}, {@code t}, {@code +}, …). */
    record Key(char key) implements Target {
    }

    /** The GPU/node pane as a whole (for the wheel). */
    record GpuPane() implements Target {
    }

    /** The process pane as a whole (for the wheel). */
    record ProcessPane() implements Target {
    }

    /** The help panel (a click inside closes it). */
    record Help() implements Target {
    }
}
