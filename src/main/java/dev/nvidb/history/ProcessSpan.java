package dev.nvidb.history;

import java.time.Instant;

/**
 * A process on a GPU from the first sample that saw it to the last one that did.
 *
 * @param memMb     GPU memory it held at the last sample; null when the driver does not say
 * @param peakMemMb the most it held at any sample; null when never known
 */
public record ProcessSpan(String node, int gpu, long pid, String user, String name, String command, Instant firstSeen,
                          Instant lastSeen, Long memMb, Long peakMemMb) {
}
