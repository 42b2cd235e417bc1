package dev.nvidb.agent;

import dev.nvidb.model.NodeSnapshot;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything one agent exec on a node answered: the GPU snapshot, the state of each queried
 * job, the session table of GPU processes, the outcome of each kill and launch, and the log reads.
 *
 * @param snapshot      GPUs and host facts (empty GPUs when the request asked for no snapshot)
 * @param agentAnswered false when the node has no python3 and only nvidia-smi answered: then no job
 *                      was queried, launched or killed, and the job lists say nothing about the jobs
 * @param jobs          one report per queried job, in request order
 * @param sessions      sid and pgid of each GPU process still alive, by pid
 * @param launches      one report per launch, in request order
 * @param kills         one report per kill, in request order
 * @param logs          one chunk per log read, in request order
 * @param slurm         a Slurm node's partition state (its snapshot), or null for a plain node
 */
public record ProbeReply(NodeSnapshot snapshot, boolean agentAnswered, List<JobReport> jobs,
        Map<Long, ProcessSession> sessions, List<LaunchReport> launches, List<KillReport> kills,
        List<LogChunk> logs, SlurmPartition slurm) {

    /** A reply from a plain node. */
    public ProbeReply(NodeSnapshot snapshot, boolean agentAnswered, List<JobReport> jobs,
                      Map<Long, ProcessSession> sessions, List<LaunchReport> launches, List<KillReport> kills,
                      List<LogChunk> logs) {
        this(snapshot, agentAnswered, jobs, sessions, launches, kills, logs, null);
    }

    public ProbeReply {
        Objects.requireNonNull(snapshot, "snapshot");
        jobs = List.copyOf(jobs);
        sessions = Map.copyOf(sessions);
        launches = List.copyOf(launches);
        kills = List.copyOf(kills);
        logs = List.copyOf(logs);
    }

    /** A reply with a snapshot only (the nvidia-smi fallback). */
    public static ProbeReply snapshotOnly(NodeSnapshot snapshot) {
        return new ProbeReply(snapshot, false, List.of(), Map.of(), List.of(), List.of(), List.of());
    }

    /** The report on job {@code id}, if it was queried and answered. */
    public Optional<JobReport> findJob(long id) {
        return jobs.stream().filter(report -> report.id() == id).findFirst();
    }

    /** The outcome of the launch of job {@code id}, if one was asked. */
    public Optional<LaunchReport> findLaunch(long id) {
        return launches.stream().filter(report -> report.id() == id).findFirst();
    }

    /** The outcome of the kill of job {@code id}, if one was asked. */
    public Optional<KillReport> findKill(long id) {
        return kills.stream().filter(report -> report.id() == id).findFirst();
    }

    /** The answer to the log read of job {@code id}, if one was asked. */
    public Optional<LogChunk> findLog(long id) {
        return logs.stream().filter(chunk -> chunk.id() == id).findFirst();
    }
}
