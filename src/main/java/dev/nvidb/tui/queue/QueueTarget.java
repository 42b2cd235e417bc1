package dev.nvidb.tui.queue;

import dev.nvidb.model.JobState;
import dev.nvidb.tui.Input;

/** What a click on the queue screen lands on; the renderer records them, {@link QueueScreen} acts on them. */
sealed interface QueueTarget {

    /** A job's row. */
    record JobRow(long id) implements QueueTarget {
    }

    /** A node's block. */
    record NodeBlock(String name) implements QueueTarget {
    }

    /** A column header of the job table. */
    record Column(JobSort sort) implements QueueTarget {
    }

    /** A state count in the header. */
    record Count(JobState state) implements QueueTarget {
    }

    /** An alert line: opens the log of its job. */
    record Alert(Long jobId) implements QueueTarget {
    }

    /** The detail or log pane (the wheel pages it). */
    record Pane() implements QueueTarget {
    }

    /** The jobs pane (the wheel moves the selection). */
    record JobsPane() implements QueueTarget {
    }

    /** The nodes pane (the wheel moves the node selection). */
    record NodesPane() implements QueueTarget {
    }

    /** A button of the action bar: acts as its key. */
    record Button(Input key) implements QueueTarget {
    }

    /** The help panel: a click closes it. */
    record Help() implements QueueTarget {
    }
}
