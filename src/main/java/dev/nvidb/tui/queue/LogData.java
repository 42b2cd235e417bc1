package dev.nvidb.tui.queue;

import java.time.Instant;

/**
 * The tail of one job's output as last read from its node.
 *
 * @param jobId  the job
 * @param text   its last lines (control characters are made harmless when drawn), or null before a read answered
 * @param error  why the last read failed, or null
 * @param readAt when it was last read
 */
record LogData(long jobId, String text, String error, Instant readAt) {
}
