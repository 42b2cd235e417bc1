package dev.nvidb.tui.queue;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;

/**
 * The job table's order. {@link #QUEUE} is the default and the one that matters: running jobs
 * first, then pending jobs exactly as the scheduler decides them (priority descending, then id),
 * then finished jobs, the most recently finished first. The others sort by one column; a job
 * compares by id where the column ties, so the order never flickers between reads.
 */
enum JobSort {
    QUEUE("queue order"),
    ID("ID"),
    STATE("STATE"),
    PRIORITY("PRI"),
    NAME("NAME"),
    NODE("NODE"),
    VRAM("VRAM"),
    USED("USED"),
    TIME("TIME"),
    EXIT("EXIT");

    private final String label;

    JobSort(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    JobSort next() {
        return values()[(ordinal() + 1) % values().length];
    }

    /** The order for this column; {@code used} is the measured VRAM by job id, {@code now} for TIME. */
    Comparator<Job> comparator(Map<Long, Long> used, Instant now) {
        Comparator<Job> byId = Comparator.comparingLong(Job::id);
        Comparator<Job> column = switch (this) {
            case QUEUE -> Comparator.comparingInt(JobSort::band).thenComparing(JobSort::withinBand);
            case ID -> byId;
            case STATE -> Comparator.comparing(job -> job.state().key());
            case PRIORITY -> Comparator.comparingInt(Job::priority).reversed();
            case NAME -> Comparator.comparing(job -> job.spec().name(), String.CASE_INSENSITIVE_ORDER);
            case NODE -> Comparator.comparing(JobSort::node);
            case VRAM -> Comparator.comparingLong((Job job) -> job.spec().vramMb()).reversed();
            case USED -> Comparator.comparingLong((Job job) -> used.getOrDefault(job.id(), -1L)).reversed();
            case TIME -> Comparator.comparingLong((Job job) -> JobCells.seconds(job, now)).reversed();
            case EXIT -> Comparator.comparingInt(job -> job.exitCode() == null ? Integer.MIN_VALUE : job.exitCode());
        };
        return column.thenComparing(byId);
    }

    private static int band(Job job) {
        return job.state() == JobState.RUNNING ? 0 : job.state() == JobState.PENDING ? 1 : 2;
    }

    /** Within running jobs: started first; pending: dispatch order; finished: latest first. */
    private static int withinBand(Job a, Job b) {
        return switch (a.state()) {
            case RUNNING -> Comparator.comparing(Job::startedAt, Comparator.nullsLast(Comparator.naturalOrder()))
                    .compare(a, b);
            case PENDING -> Comparator.comparingInt(Job::priority).reversed().compare(a, b);
            default -> Comparator.comparing(Job::finishedAt, Comparator.nullsLast(Comparator.<Instant>reverseOrder()))
                    .compare(a, b);
        };
    }

    private static String node(Job job) {
        return job.assignment() != null ? job.assignment().node() : job.spec().node() != null ? job.spec().node() : "";
    }
}
