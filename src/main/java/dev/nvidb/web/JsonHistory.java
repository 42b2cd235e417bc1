package dev.nvidb.web;

import dev.nvidb.history.NodeFailure;
import dev.nvidb.history.ProcessSpan;
import dev.nvidb.history.SampleRow;
import dev.nvidb.history.SessionView;
import java.math.BigDecimal;
import java.util.List;

/** The History API's documents (docs/web.md); times are seconds since the epoch with milliseconds. */
final class JsonHistory {

    private JsonHistory() {
    }

    /** {@code /api/history/sessions}: the log's file and its sessions, newest first. */
    record Sessions(int schemaVersion, String log, List<Session> sessions) {
    }

    /** One run of {@code nvidb log}; {@code ended_at} null while it runs or when it was killed. */
    record Session(long id, BigDecimal startedAt, BigDecimal endedAt, BigDecimal intervalS, String host, List<String> nodes,
                   String endReason, long samples, long failures) {
        static Session of(SessionView view) {
            return new Session(view.id(), JsonTimes.seconds(view.startedAt()), JsonTimes.seconds(view.endedAt()),
                    BigDecimal.valueOf(view.interval().toMillis(), 3), view.host(), view.nodes(), view.endReason(),
                    view.samples(), view.failures());
        }
    }

    /** {@code /api/history/samples}: the filters as understood, the rows, and the probes nodes did not answer. */
    record Samples(int schemaVersion, long session, String node, Integer gpu, BigDecimal from, BigDecimal to, int limit,
                   boolean truncated, List<Sample> samples, List<Failure> failures) {
    }

    /** One GPU at one sample; null where the driver could not say. */
    record Sample(BigDecimal at, String node, int gpu, String gpuName, String uuid, Integer utilPercent,
                  Integer memUtilPercent, Long memUsedMb, Long memTotalMb, Integer temperatureC, Double powerW,
                  Double powerLimitW, int processes) {
        static Sample of(SampleRow row) {
            return new Sample(JsonTimes.seconds(row.at()), row.node(), row.gpu(), row.gpuName(), row.uuid(),
                    row.utilPercent(), row.memUtilPercent(), row.memUsedMb(), row.memTotalMb(), row.temperatureC(),
                    row.powerW(), row.powerLimitW(), row.processes());
        }
    }

    /** A probe a node did not answer, and why. */
    record Failure(BigDecimal at, String node, String failure) {
        static Failure of(NodeFailure failure) {
            return new Failure(JsonTimes.seconds(failure.at()), failure.node(), failure.failure());
        }
    }

    /** {@code /api/history/processes}. */
    record Processes(int schemaVersion, long session, String node, List<Process> processes) {
    }

    /** A process on a GPU from the first sample that saw it to the last. */
    record Process(String node, int gpu, long pid, String user, String name, String command, BigDecimal firstSeen,
                   BigDecimal lastSeen, Long memMb, Long peakMemMb) {
        static Process of(ProcessSpan span) {
            return new Process(span.node(), span.gpu(), span.pid(), span.user(), span.name(), span.command(),
                    JsonTimes.seconds(span.firstSeen()), JsonTimes.seconds(span.lastSeen()), span.memMb(), span.peakMemMb());
        }
    }
}
