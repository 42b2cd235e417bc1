package dev.nvidb.tui.queue;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.output.Units;
import dev.nvidb.queue.GpuView;
import dev.nvidb.queue.NodeView;
import dev.nvidb.model.GpuProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** What the job table's cells say about one job. Pure. */
final class JobCells {

    private JobCells() {
    }

    static String node(Job job) {
        Assignment assignment = job.assignment();
        if (assignment != null) {
            return assignment.node();
        }
        return job.spec().node() == null ? "-" : job.spec().node() + "?";
    }

    static String gpus(Job job) {
        Assignment assignment = job.assignment();
        if (assignment != null) {
            return assignment.gpuIds().isEmpty() ? "cpu"
                    : assignment.gpuIds().stream().map(String::valueOf).collect(Collectors.joining(","));
        }
        return job.spec().gpus() == 0 ? "cpu" : "×" + job.spec().gpus();
    }

    static String vram(Job job) {
        return job.spec().vramMb() > 0 ? Units.mebibytes(job.spec().vramMb()) : "-";
    }

    static String used(Job job, Map<Long, Long> used) {
        Long mib = used.get(job.id());
        return job.state() == JobState.RUNNING && mib != null ? Units.mebibytes(mib) : "-";
    }

    static String exit(Job job) {
        return job.exitCode() == null ? "" : String.valueOf(job.exitCode());
    }

    /** Seconds the TIME column counts: waiting, running, or the run's length once it ended. */
    static long seconds(Job job, Instant now) {
        Instant from = job.state() == JobState.PENDING ? job.createdAt() : job.startedAt();
        Instant to = job.finishedAt() != null ? job.finishedAt() : now;
        return from == null ? 0 : Math.max(0, Duration.between(from, to).getSeconds());
    }

    static String time(Job job, Instant now) {
        if (job.state().finished() && job.startedAt() == null) {
            return "-";
        }
        long seconds = seconds(job, now);
        if (seconds < 3600) {
            return String.format("%d:%02d", seconds / 60, seconds % 60);
        }
        if (seconds < 100 * 3600) {
            return String.format("%dh%02dm", seconds / 3600, seconds / 60 % 60);
        }
        return seconds / 86400 + "d";
    }

    /** Measured GPU memory of each running queue job: the memory of the processes the queue knows as its. */
    static Map<Long, Long> measured(List<NodeView> nodes) {
        Map<Long, Long> used = new HashMap<>();
        for (NodeView node : nodes) {
            for (GpuView gpu : node.gpus()) {
                for (GpuProcess process : gpu.gpu().processes()) {
                    Long job = gpu.jobOfPid().get(process.pid());
                    if (job != null && process.memMb() != null) {
                        used.merge(job, process.memMb(), Long::sum);
                    }
                }
            }
        }
        return used;
    }
}
