package dev.nvidb.tui.queue;

import java.time.Instant;

/**
 * Where the user is on the queue screen: focus, selections, filter, sort, open panes, the
 * armed cancel. Owned by the input thread; the renderer reads it.
 */
final class QueueScreenState {

    /** Which pane j/k move in. */
    enum Focus { NODES, JOBS }

    /** The pane under the job table. */
    enum Pane { NONE, DETAIL, LOG }

    /** Which GPU processes the node blocks list ({@code p}). */
    enum Processes {
        UNMANAGED("processes the queue did not start"), ALL("every GPU process"), NONE("no processes");

        final String label;

        Processes(String label) {
            this.label = label;
        }

        Processes next() {
            return values()[(ordinal() + 1) % values().length];
        }
    }

    Focus focus = Focus.JOBS;
    Long selectedJob;
    int jobScroll;
    String selectedNode;
    int nodeScroll;
    StateFilter filter = StateFilter.ALL;
    JobSort sort = JobSort.QUEUE;
    boolean descending;
    Pane pane = Pane.NONE;
    /** Lines scrolled: from the top for the detail, from the bottom for the log. */
    int paneScroll;
    Processes processes = Processes.UNMANAGED;
    boolean help;
    /** The job a first {@code c} armed the cancel of, and when; null when none is armed. */
    Long armedCancel;
    Instant armedAt;
    /** Rows the last frame gave the job table and the pane (for paging). */
    int jobRowsShown = 10;
    int paneRowsShown = 5;
}
