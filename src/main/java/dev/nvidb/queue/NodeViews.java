package dev.nvidb.queue;

import dev.nvidb.agent.AgentReplyParser;
import dev.nvidb.agent.ProbeReply;
import dev.nvidb.agent.ProcessSession;
import dev.nvidb.engine.Capacities;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.scheduler.GpuBudget;
import dev.nvidb.scheduler.GpuCapacity;
import dev.nvidb.scheduler.NodeCapacity;
import dev.nvidb.store.NodeRecord;
import dev.nvidb.store.StoredJob;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds node views from what the database holds: each node's last answer, read with the
 * same accounting the scheduler uses, so {@code free_mb} is what a new job could reserve.
 */
final class NodeViews {

    private final long headroomMb;

    NodeViews(long headroomMb) {
        this.headroomMb = headroomMb;
    }

    NodeView node(String name, NodeRecord record, List<StoredJob> running) {
        List<StoredJob> here = running.stream().filter(job -> job.job().state() == JobState.RUNNING
                && job.job().assignment().node().equals(name)).toList();
        if (record == null) {
            return new NodeView(name, "unknown", false, false, null, null, 0, null, null, List.of(), here.size());
        }
        ProbeReply reply = lastReply(name, record);
        String status = record.consecutiveFailures() > 0 ? "down" : record.lastSeenAt() == null ? "unknown" : "up";
        List<GpuView> gpus = reply == null ? List.of()
                : status.equals("up") ? gpus(name, reply, here) : lastKnown(reply);
        return new NodeView(name, status, record.drained(), record.ignored(), record.lastSeenAt(), record.lastError(),
                record.consecutiveFailures(), record.backoffUntil(), reply == null ? null : reply.snapshot(), gpus,
                here.size(), reply == null || reply.slurm() == null ? null : reply.slurm().describe());
    }

    private List<GpuView> gpus(String name, ProbeReply reply, List<StoredJob> here) {
        NodeCapacity capacity = Capacities.answered(name, reply, here);
        List<Job> jobs = here.stream().map(StoredJob::job).toList();
        Map<Long, Long> jobOfSession = new HashMap<>();
        here.stream().filter(job -> job.process() != null).forEach(job -> jobOfSession.put(job.process().pid(), job.id()));
        List<GpuView> views = new ArrayList<>();
        for (int i = 0; i < reply.snapshot().gpus().size(); i++) {
            GpuSnapshot gpu = reply.snapshot().gpus().get(i);
            GpuCapacity gpuCapacity = capacity.gpus().get(i);
            GpuBudget budget = gpuCapacity.state().known() ? GpuBudget.of(name, gpuCapacity, jobs, headroomMb) : null;
            Map<Long, Long> jobOfPid = new HashMap<>();
            for (GpuProcess process : gpu.processes()) {
                ProcessSession session = reply.sessions().get(process.pid());
                Long job = session == null ? null : jobOfSession.get(session.sid());
                if (job != null) {
                    jobOfPid.put(process.pid(), job);
                }
            }
            String attribution = switch (gpuCapacity.state()) {
                case MEASURED -> "measured";
                case BLIND -> "blind";
                case UNKNOWN -> "unknown";
            };
            views.add(new GpuView(gpu, budget, attribution, jobOfPid, reply.snapshot().claims().on(gpu.uuid())));
        }
        return views;
    }

    /** A node that stopped answering offers nothing: its GPUs as last seen, with no budget. */
    private static List<GpuView> lastKnown(ProbeReply reply) {
        return reply.snapshot().gpus().stream().map(gpu -> new GpuView(gpu, null, "unknown", Map.of(),
                reply.snapshot().claims().on(gpu.uuid()))).toList();
    }

    private static ProbeReply lastReply(String name, NodeRecord record) {
        if (record.lastProbe() == null) {
            return null;
        }
        try {
            return AgentReplyParser.parseReply(name, record.lastProbe().getBytes(StandardCharsets.UTF_8), new byte[0]);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
