package dev.nvidb.config;

/**
 * The {@code view:} section of {@code config.yml}: monitor TUI layout that the TUI writes back so
 * the next run opens the same way. A null field was never saved; the TUI uses its own default.
 *
 * @param mode            per-node blocks or one unified GPU table
 * @param detail          unified view shows detailed cards instead of single-line rows
 * @param sort            unified GPU sort order, as named by the TUI
 * @param filter          unified GPU filter, as named by the TUI
 * @param group           unified single-line rows are grouped per node
 * @param showUnsupported show nodes without GPU support
 * @param history         show GPU and process history
 * @param processPane     show the selected GPU's process pane
 * @param mouse           enable mouse reporting in both TUIs (default true)
 * @param singleLine      single-line rows in the unified view
 */
public record ViewConfig(
        ViewMode mode,
        Boolean detail,
        String sort,
        String filter,
        Boolean group,
        Boolean showUnsupported,
        Boolean history,
        Boolean processPane,
        boolean mouse,
        Boolean singleLine) {

    /** Nothing saved yet. */
    public static ViewConfig defaults() {
        return new ViewConfig(null, null, null, null, null, null, null, null, true, null);
    }
}
