package dev.nvidb.engine;

import dev.nvidb.agent.AgentReplyParser;
import dev.nvidb.agent.ProbeReply;
import dev.nvidb.config.QueueConfig;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.scheduler.NodeCapacity;
import dev.nvidb.scheduler.PlacementMode;
import dev.nvidb.scheduler.QueueSnapshot;
import dev.nvidb.scheduler.SchedulingPolicy;
import dev.nvidb.store.JobFilter;
import dev.nvidb.store.GroupStore;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.NodeRecord;
import dev.nvidb.store.NodeStore;
import dev.nvidb.store.SqlWork;
import dev.nvidb.store.StoredJob;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What the scheduler plans with, read from the database in one transaction: the queue snapshot,
 * every queue node's capacity (ignored nodes left out and named), and the policy. The tick
 * builds it from this tick's answers; {@code job why} from each node's last stored answer, so
 * both see the queue the same way.
 *
 * @param queue   pending (undamaged) and running jobs, and the states of their dependencies
 * @param nodes   capacities of the nodes not ignored, in configuration order
 * @param policy  the scheduling policy of {@code queue.yml}
 * @param ignored nodes left out by {@code queue ignore}
 * @param records each node's stored record, by name
 * @param seen    every active job as read (the commit compares against these)
 */
public record PlanningInput(QueueSnapshot queue, List<NodeCapacity> nodes, SchedulingPolicy policy,
                            List<String> ignored, Map<String, NodeRecord> records, Map<Long, Job> seen) {

    /**
     * Reads the input; {@code answers} gives each node's answer to plan with (this tick's, or the
     * last stored one), or null when the node is to be planned as not answering.
     */
    static SqlWork<PlanningInput> read(JobStore jobs, NodeStore nodeStore, GroupStore groups, QueueNodes nodes,
                                       TickSettings settings, Answers answers) {
        return conn -> {
            List<StoredJob> active = jobs.listJobs(conn, JobFilter.active());
            List<StoredJob> running = active.stream().filter(job -> job.job().state() == JobState.RUNNING).toList();
            Map<String, String> heldGroups = new HashMap<>();
            Map<String, Integer> caps = new HashMap<>();
            for (GroupStore.GroupRow group : groups.listGroups(conn)) {
                if (group.heldReason() != null) {
                    heldGroups.put(group.name(), group.heldReason());
                }
                if (group.maxRunning() != null) {
                    caps.put(group.name(), group.maxRunning());
                }
            }
            List<Job> pending = active.stream().filter(job -> job.damage() == null)
                    .map(StoredJob::job).filter(job -> job.state() == JobState.PENDING)
                    .map(job -> heldByGroup(job, heldGroups)).toList();
            Set<Long> wanted = new HashSet<>();
            pending.forEach(job -> job.spec().dependencies().forEach(dependency -> wanted.add(dependency.jobId())));
            Map<Long, JobState> dependencyStates = new HashMap<>(jobs.statesOf(conn, wanted));
            QueueSnapshot queue = new QueueSnapshot(pending, running.stream().map(StoredJob::job).toList(),
                    dependencyStates, caps);
            Map<String, NodeRecord> records = nodeStore.listNodes(conn).stream()
                    .collect(Collectors.toMap(NodeRecord::name, Function.identity()));
            List<NodeCapacity> capacities = new ArrayList<>();
            List<String> ignored = new ArrayList<>();
            Set<Long> activeIds = new HashSet<>();
            active.forEach(job -> activeIds.add(job.id()));
            for (String name : nodes.names()) {
                NodeRecord record = records.get(name);
                if (record != null && record.ignored()) {
                    ignored.add(name);
                    continue;
                }
                capacities.add(capacity(nodes, name, answers.answer(name, record), record, running,
                        () -> NodeShares.waiting(name, pending, activeIds)));
            }
            Map<Long, Job> seen = new HashMap<>();
            active.forEach(job -> seen.put(job.id(), job.job()));
            return new PlanningInput(queue, capacities, policy(settings.queue()), ignored, records, seen);
        };
    }

    /**
     * A pending job of a group fail-fast held, as the planner sees it: held with the group's
     * reason (a person's own hold on the job stays). Only the plan sees this; the row is unchanged.
     */
    private static Job heldByGroup(Job job, Map<String, String> heldGroups) {
        String group = job.spec().sweep().group();
        String reason = group == null ? null : heldGroups.get(group);
        return reason == null || job.held() ? job : job.withStatus(new dev.nvidb.model.JobStatus.Pending(reason));
    }

    /** A node's answer to plan with, or null: planned as not answering (last known GPUs) or never answered. */
    @FunctionalInterface
    interface Answers {
        ProbeReply answer(String name, NodeRecord record);
    }

    /**
     * Each node's last stored answer, as long as its last probe succeeded: what the next tick
     * would see if every node answered as it did last time. A node whose last probe failed is
     * not answering; one never probed has never answered.
     */
    static ProbeReply lastStoredAnswer(String name, NodeRecord record) {
        if (record == null || record.lastProbe() == null || record.consecutiveFailures() > 0
                || record.lastSeenAt() == null) {
            return null;
        }
        try {
            return AgentReplyParser.parseReply(name, record.lastProbe().getBytes(StandardCharsets.UTF_8), new byte[0]);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static NodeCapacity capacity(QueueNodes nodes, String name, ProbeReply reply, NodeRecord record,
                                         List<StoredJob> running, java.util.function.Supplier<List<Job>> waitingHere) {
        NodeCapacity capacity;
        if (nodes.slurm(name) != null) {
            // Slurm owns the budget: the cluster takes jobs while its controller answers sinfo.
            capacity = NodeCapacity.slurm(name, reply != null && reply.slurm() != null && reply.slurm().error() == null);
        } else if (reply != null) {
            List<StoredJob> here = running.stream().filter(job -> job.job().assignment().node().equals(name)).toList();
            capacity = NodeShares.apply(Capacities.answered(name, reply, here), reply.snapshot().claims(), waitingHere);
        } else {
            capacity = Capacities.notAnswering(name, lastKnown(name, record));
        }
        if (record != null && record.drained()) {
            capacity = capacity.asDrained();
        }
        List<Integer> allowed = nodes.allowedGpus(name);
        return allowed == null ? capacity : capacity.withGpuAllowlist(allowed);
    }

    private static NodeSnapshot lastKnown(String name, NodeRecord record) {
        if (record == null || record.lastProbe() == null) {
            return null;
        }
        try {
            return AgentReplyParser.parseJson(name, record.lastProbe(), "");
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The scheduling policy of {@code queue.yml}. */
    static SchedulingPolicy policy(QueueConfig queue) {
        PlacementMode mode = queue.placement() == dev.nvidb.config.PlacementPolicy.PACK
                ? PlacementMode.PACK : PlacementMode.SPREAD;
        return new SchedulingPolicy(queue.headroomMb(), mode, queue.maxJobsPerGpu(), queue.maxCpuJobsPerNode(),
                queue.slurmOverflow());
    }
}
