package dev.nvidb.queue;

import java.time.Duration;
import java.time.Instant;

/**
 * The queue database holds a time from the future by this machine's clock: a client's clock
 * was ahead when it wrote it, or this machine's clock stepped back since. Ticks go on
 * regardless (such times count as expired); this says that a clock is wrong.
 *
 * @param what       what recorded the time furthest ahead, e.g. "the last tick"
 * @param recordedAt that time
 * @param ahead      how far ahead of this machine's clock it is
 */
public record ClockSkew(String what, Instant recordedAt, Duration ahead) {
}
