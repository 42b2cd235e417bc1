package dev.nvidb.tui.queue;

import dev.nvidb.model.JobState;
import dev.nvidb.tui.Input;

/** What a click on the queue screen lands on; the renderer records them, {@link QueueScreen} acts on them. */
sealed interface Target {

    /** A job's row. */
    record JobRow(long id) implements Target {
    }

    /** A node's block. */
    record NodeBlock(String name) implements Target {
    }

    /** A column header of the job table. */
    record Column(JobSort sort) implements Target {
    }

    /** A state count in the header. */
    record Count(JobState state) implements Target {
    }

    /** An alert line: opens the log of its job. */
    record Alert(Long jobId) implements Target {
    }

    /** The detail or log pane (the wheel pages it). */
    record Pane() implements Target {
    }

    /** The jobs pane (the wheel moves the selection). */
    record JobsPane() implements Target {
    }

    /** The nodes pane (the wheel moves the node selection). */
    record NodesPane() implements Target {
    }

    /** A button of the action bar: acts as its key. */
    record Button(Input key) implements Target {
    }

    /** The help panel: a click closes it. */
    record Help() implements Target {
    }
}
