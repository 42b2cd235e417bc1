package dev.nvidb.queue;

/**
 * What a cancel or requeue did to one job.
 *
 * @param id      the job
 * @param changed whether this request changed it
 * @param state   its state afterwards
 * @param message one line for people ("cancelled job 7", "job 8 already ended: completed")
 */
public record JobChange(long id, boolean changed, String state, String message) {
}
