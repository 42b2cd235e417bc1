package dev.nvidb.tui.queue;

import java.time.Instant;

/**
 * One line telling the user what their last action did.
 *
 * @param text  the line
 * @param error whether it reports a failure
 * @param at    when it was said (messages fade after a while)
 */
record Message(String text, boolean error, Instant at) {
}
