package dev.nvidb.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nvidb.json.Mappers;
import dev.nvidb.model.SlurmTarget;
import java.util.List;
import java.util.Objects;

/**
 * One request line for the node agent (docs/agent-protocol.md). The tick sends one per node
 * to probe (snapshot, job queries, pending reaps) and, when there is something to do, one
 * more with the launches and kills. The agent handles kills, then launches, then the
 * snapshot, then the queries, then the log reads.
 *
 * @param jobRoot      where the node keeps job directories and measures free disk ({@code ~} is its home)
 * @param jobs         jobs the queue believes are on the node
 * @param launches     attempts to start
 * @param kills        jobs to stop (cancel, timeout, pending reap)
 * @param logTailLines how many lines of a failed job's log to return
 * @param snapshot     false to skip the GPU snapshot (a launch-and-kill exec right after a probe)
 * @param logs         reads of job output ({@code job logs}, {@code job show})
 * @param removeDirs   directories of jobs that ended long ago, to remove (retention)
 * @param slurm        for a Slurm node, the partition its launches go to: the agent then submits with
 *                     {@code sbatch}, follows with {@code squeue}/{@code sacct} and cancels with {@code scancel}
 *                     (docs/agent-protocol.md, "Slurm"); null for a plain node
 * @param claims       the node's claims directory and this queue's id and name, or null for a monitor's
 *                     probe (which reads the default directory)
 */
public record AgentRequest(String jobRoot, List<JobQuery> jobs, List<LaunchRequest> launches,
        List<KillRequest> kills, int logTailLines, boolean snapshot, List<LogRead> logs, List<DirRemoval> removeDirs,
        SlurmTarget slurm, Claims claims) {

    /**
     * Where the node keeps GPU claims, and who this queue is there (docs/sharing.md).
     *
     * @param dir  the claims directory on the node, or null for the agent's default ({@code /tmp/nvidb-claims})
     * @param queue the queue's random id (its own claims are not foreign to it)
     * @param name  the queue's name, shown to other users beside its claims
     * @param demand what this queue's ready GPU jobs for the node wait for, published there for other
     *               queues' fair share (a probe, and a launch round once its jobs are placed); null
     *               publishes nothing (a monitor)
     */
    public record Claims(String dir, String queue, String name, Demand demand) {

        /** Claims settings that publish no demand. */
        public Claims(String dir, String queue, String name) {
            this(dir, queue, name, null);
        }

        /** The same settings publishing {@code waiting}. */
        public Claims withDemand(Demand waiting) {
            return new Claims(dir, queue, name, waiting);
        }
    }

    /**
     * A queue's waiting demand on one node (docs/sharing.md): how many ready GPU jobs could run
     * there, the smallest of them, and when the oldest was submitted. Zero waiting removes it.
     *
     * @param waiting   ready GPU jobs that could run on the node
     * @param gpus      GPUs the smallest of them needs
     * @param mib       MiB per GPU it needs
     * @param exclusive whether it needs whole cards
     * @param oldestAt  submission time of the oldest, in seconds since the epoch
     */
    public record Demand(int waiting, int gpus, long mib, boolean exclusive, long oldestAt) {

        /** Nothing waits. */
        public static final Demand NONE = new Demand(0, 0, 0, false, 0);
    }

    /** Lines of log tail returned for a failed job unless asked otherwise. */
    public static final int DEFAULT_LOG_TAIL_LINES = 20;

    private static final ObjectMapper MAPPER = Mappers.PLAIN;

    public AgentRequest {
        Objects.requireNonNull(jobRoot, "jobRoot");
        jobs = List.copyOf(jobs);
        launches = List.copyOf(launches);
        kills = List.copyOf(kills);
        logs = List.copyOf(logs);
        removeDirs = List.copyOf(removeDirs);
        if (logTailLines < 0) {
            throw new IllegalArgumentException("log tail lines cannot be negative");
        }
    }

    /** A request for a plain node. */
    public AgentRequest(String jobRoot, List<JobQuery> jobs, List<LaunchRequest> launches, List<KillRequest> kills,
                        int logTailLines, boolean snapshot, List<LogRead> logs, List<DirRemoval> removeDirs) {
        this(jobRoot, jobs, launches, kills, logTailLines, snapshot, logs, removeDirs, null, null);
    }

    /** A request without directory removals. */
    public AgentRequest(String jobRoot, List<JobQuery> jobs, List<LaunchRequest> launches,
                        List<KillRequest> kills, int logTailLines, boolean snapshot, List<LogRead> logs) {
        this(jobRoot, jobs, launches, kills, logTailLines, snapshot, logs, List.of());
    }

    /** A plain probe: the snapshot and nothing else. */
    public static AgentRequest probe(String jobRoot) {
        return new AgentRequest(jobRoot, List.of(), List.of(), List.of(), DEFAULT_LOG_TAIL_LINES, true, List.of());
    }

    /** This request with these job queries. */
    public AgentRequest withJobs(List<JobQuery> queries) {
        return new AgentRequest(jobRoot, queries, launches, kills, logTailLines, snapshot, logs, removeDirs, slurm, claims);
    }

    /** This request with these launches. */
    public AgentRequest withLaunches(List<LaunchRequest> requests) {
        return new AgentRequest(jobRoot, jobs, requests, kills, logTailLines, snapshot, logs, removeDirs, slurm, claims);
    }

    /** This request with these kills. */
    public AgentRequest withKills(List<KillRequest> requests) {
        return new AgentRequest(jobRoot, jobs, launches, requests, logTailLines, snapshot, logs, removeDirs, slurm, claims);
    }

    /** This request with another log tail length. */
    public AgentRequest withLogTailLines(int lines) {
        return new AgentRequest(jobRoot, jobs, launches, kills, lines, snapshot, logs, removeDirs, slurm, claims);
    }

    /** This request without the GPU snapshot. */
    public AgentRequest withoutSnapshot() {
        return new AgentRequest(jobRoot, jobs, launches, kills, logTailLines, false, logs, removeDirs, slurm, claims);
    }

    /** This request with these log reads. */
    public AgentRequest withLogs(List<LogRead> reads) {
        return new AgentRequest(jobRoot, jobs, launches, kills, logTailLines, snapshot, reads, removeDirs, slurm, claims);
    }

    /** This request with these directory removals. */
    public AgentRequest withDirRemovals(List<DirRemoval> removals) {
        return new AgentRequest(jobRoot, jobs, launches, kills, logTailLines, snapshot, logs, removals, slurm, claims);
    }

    /** This request to a Slurm node submitting to {@code target} (null: a plain node). */
    public AgentRequest withSlurm(SlurmTarget target) {
        return new AgentRequest(jobRoot, jobs, launches, kills, logTailLines, snapshot, logs, removeDirs, target, claims);
    }

    /** This request with the node's claims directory and this queue's id and name. */
    public AgentRequest withClaims(Claims settings) {
        return new AgentRequest(jobRoot, jobs, launches, kills, logTailLines, snapshot, logs, removeDirs, slurm, settings);
    }

    /** The request as one line of JSON (no line breaks: strings are escaped). */
    public String toJson() {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("job_root", jobRoot);
        root.put("snapshot", snapshot);
        root.put("log_tail_lines", logTailLines);
        ArrayNode queries = root.putArray("jobs");
        jobs.forEach(query -> {
            ObjectNode entry = queries.addObject().put("id", query.id()).put("attempt", query.attempt())
                    .put("token", query.token()).put("dir", query.dir());
            if (query.process() != null) {
                entry.put("pid", query.process().pid()).put("pgid", query.process().pgid())
                        .put("start_ticks", query.process().startTicks()).put("boot_id", query.process().bootId());
            }
        });
        ArrayNode starts = root.putArray("launch");
        launches.forEach(launch -> {
            ObjectNode entry = starts.addObject().put("id", launch.id()).put("attempt", launch.attempt())
                    .put("token", launch.token()).put("dir", launch.dir()).put("script", launch.script());
            if (!launch.claim().gpuUuids().isEmpty() && slurm == null) {
                ObjectNode claim = entry.putObject("claim").put("mib", launch.claim().mib())
                        .put("exclusive", launch.claim().exclusive()).put("timeout_s", launch.claim().timeoutSeconds());
                launch.claim().gpuUuids().forEach(claim.putArray("gpus")::add);
                if (launch.claim().cap() != null) {
                    claim.putObject("cap").put("gpus", launch.claim().cap().gpus()).put("mib", launch.claim().cap().mib());
                }
            }
            if (slurm != null) {
                entry.put("gpus", launch.ask().gpus()).put("timeout_s", launch.ask().timeoutSeconds())
                        .put("name", launch.ask().name());
            }
        });
        ArrayNode stops = root.putArray("kill");
        kills.forEach(kill -> {
            ObjectNode entry = stops.addObject().put("id", kill.id()).put("dir", kill.dir()).put("pid", kill.pid())
                    .put("start_ticks", kill.startTicks()).put("boot_id", kill.bootId())
                    .put("grace_s", kill.graceSeconds());
            if (kill.token() != null) {
                entry.put("token", kill.token());
            }
        });
        ArrayNode reads = root.putArray("logs");
        logs.forEach(read -> {
            ObjectNode entry = reads.addObject().put("id", read.id()).put("dir", read.dir())
                    .put("stream", read.stream()).put("lines", read.lines()).put("max_bytes", read.maxBytes());
            if (read.offset() != null) {
                entry.put("offset", read.offset());
            }
        });
        if (!removeDirs.isEmpty()) {
            ArrayNode removals = root.putArray("remove_dirs");
            removeDirs.forEach(removal -> {
                ObjectNode entry = removals.addObject().put("id", removal.id()).put("dir", removal.dir());
                if (removal.lastAttempt() != null) {
                    entry.put("attempt", removal.lastAttempt());
                }
            });
        }
        if (claims != null) {
            ObjectNode settings = root.putObject("claims").put("dir", claims.dir()).put("queue", claims.queue())
                    .put("name", claims.name());
            if (claims.demand() != null) {
                Demand demand = claims.demand();
                settings.putObject("demand").put("waiting", demand.waiting()).put("gpus", demand.gpus())
                        .put("mib", demand.mib()).put("exclusive", demand.exclusive()).put("oldest_at", demand.oldestAt());
            }
        }
        if (slurm != null) {
            root.putObject("slurm").put("partition", slurm.partition()).put("account", slurm.account())
                    .put("qos", slurm.qos()).put("time_limit", slurm.timeLimit()).put("bin", slurm.bin());
        }
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render an agent request", e);
        }
    }
}
