package dev.nvidb.config;

/**
 * The {@code queue.retention:} section: how long what the queue no longer needs is kept, in
 * days; 0 keeps it forever. Nothing still needed is ever removed: pending and running jobs, a
 * finished job a pending or running job depends on, an open alert or one a channel is still
 * owed, the directory of a job whose process lives.
 *
 * @param finishedJobsDays finished jobs (with their dependency rows), counted from when they ended
 * @param eventsDays       events, except those of pending and running jobs
 * @param alertsDays       acknowledged alerts every channel has delivered, counted from the acknowledgement
 * @param jobDirsDays      job directories on the nodes (the job's output), counted from when the job ended
 */
public record RetentionConfig(int finishedJobsDays, int eventsDays, int alertsDays, int jobDirsDays) {

    public static RetentionConfig defaults() {
        return new RetentionConfig(30, 30, 30, 14);
    }

    /** True when nothing is ever removed. */
    public boolean keepsEverything() {
        return finishedJobsDays == 0 && eventsDays == 0 && alertsDays == 0 && jobDirsDays == 0;
    }
}
