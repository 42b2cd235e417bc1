package dev.nvidb.tui.queue;

import dev.nvidb.model.JobState;
import java.util.EnumSet;
import java.util.Set;

/** Which jobs the table shows; {@code f} cycles through them, a state count in the header picks one. */
enum StateFilter {
    ALL("all", EnumSet.allOf(JobState.class)),
    ACTIVE("active", EnumSet.of(JobState.PENDING, JobState.RUNNING)),
    PENDING("pending", EnumSet.of(JobState.PENDING)),
    RUNNING("running", EnumSet.of(JobState.RUNNING)),
    COMPLETED("completed", EnumSet.of(JobState.COMPLETED)),
    FAILED("failed, timed out or lost", EnumSet.of(JobState.FAILED, JobState.TIMEOUT, JobState.LOST)),
    CANCELLED("cancelled", EnumSet.of(JobState.CANCELLED));

    private final String label;
    private final Set<JobState> states;

    StateFilter(String label, Set<JobState> states) {
        this.label = label;
        this.states = states;
    }

    String label() {
        return label;
    }

    boolean shows(JobState state) {
        return states.contains(state);
    }

    StateFilter next() {
        return values()[(ordinal() + 1) % values().length];
    }

    /** The filter a click on the count of {@code state} picks. */
    static StateFilter of(JobState state) {
        return switch (state) {
            case PENDING -> PENDING;
            case RUNNING -> RUNNING;
            case COMPLETED -> COMPLETED;
            case CANCELLED -> CANCELLED;
            case FAILED, TIMEOUT, LOST -> FAILED;
        };
    }
}
