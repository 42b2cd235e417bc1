package dev.nvidb.history;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One run of {@code nvidb log}.
 *
 * @param id        the session's number in its log
 * @param startedAt when it began
 * @param endedAt   when it ended; null while it runs, or when its process was killed
 * @param interval  the sampling interval it was asked for
 * @param host      the machine that ran it
 * @param nodes     the nodes it sampled, in display order
 * @param endReason why it ended ({@code interrupted}, {@code duration}, {@code error: ...}); null when {@code endedAt} is
 * @param samples   node probes recorded (answered or not)
 * @param failures  of those, probes a node did not answer
 */
public record SessionView(long id, Instant startedAt, Instant endedAt, Duration interval, String host, List<String> nodes,
                          String endReason, long samples, long failures) {

    public SessionView {
        nodes = List.copyOf(nodes);
    }
}
