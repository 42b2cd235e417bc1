package dev.nvidb.engine;

import dev.nvidb.agent.ProbeReply;
import dev.nvidb.agent.ProcessSession;
import dev.nvidb.model.GpuClaim;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.scheduler.GpuCapacity;
import dev.nvidb.scheduler.NodeCapacity;
import dev.nvidb.store.StoredJob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns what a node reported into what the scheduler plans with: per GPU, memory held by the
 * queue's own jobs (a GPU process belongs to a job when it is in the session its wrapper
 * leads) and by everything else. Memory the driver counts but no listed process explains is
 * charged as foreign: the queue fails closed. Another queue's live claim on a GPU is foreign too,
 * charged the larger of its reservation and its job's measured use (that use is already among the
 * foreign processes, so only the claim's part not yet allocated is added); a claim that holds the
 * card whole ({@code --exclusive}) leaves nothing free (docs/sharing.md).
 */
public final class Capacities {

    private Capacities() {
    }

    /** The node's capacity from this tick's answer. */
    public static NodeCapacity answered(String node, ProbeReply reply, List<StoredJob> runningHere) {
        Map<Long, Long> jobBySession = new HashMap<>();
        for (StoredJob job : runningHere) {
            if (job.process() != null) {
                jobBySession.put(job.process().pid(), job.id());
            }
        }
        List<GpuCapacity> gpus = new ArrayList<>();
        for (GpuSnapshot gpu : reply.snapshot().gpus()) {
            gpus.add(gpu(gpu, reply, jobBySession, runningHere));
        }
        return NodeCapacity.answered(node, gpus);
    }

    /** What the job holds on each GPU of the reply, by job id then GPU index: for the measured figure. */
    static Map<Long, Long> largestUse(ProbeReply reply, List<StoredJob> runningHere) {
        Map<Long, Long> largest = new HashMap<>();
        for (StoredJob job : runningHere) {
            if (job.process() == null) {
                continue;
            }
            for (GpuSnapshot gpu : reply.snapshot().gpus()) {
                long held = 0;
                for (GpuProcess process : gpu.processes()) {
                    if (process.memMb() != null && sessionOf(reply, process) == job.process().pid()) {
                        held += process.memMb();
                    }
                }
                if (held > 0) {
                    largest.merge(job.id(), held, Math::max);
                }
            }
        }
        return largest;
    }

    /**
     * The GPUs (by index) on which the job's processes hold memory although it was not given
     * them: a job that ignores {@code CUDA_VISIBLE_DEVICES}. Empty for a job without a process
     * yet, and for a CPU-only job that touches no GPU.
     */
    static List<Integer> wrongGpus(ProbeReply reply, StoredJob job) {
        if (job.process() == null || job.job().assignment() == null) {
            return List.of();
        }
        var assignment = job.job().assignment();
        List<Integer> wrong = new ArrayList<>();
        for (GpuSnapshot gpu : reply.snapshot().gpus()) {
            boolean given = gpu.uuid() != null && assignment.gpuUuids().contains(gpu.uuid())
                    || assignment.gpuUuids().isEmpty() && assignment.gpuIds().contains(gpu.index());
            if (!given && gpu.processes().stream().anyMatch(process -> sessionOf(reply, process) == job.process().pid())) {
                wrong.add(gpu.index());
            }
        }
        return wrong;
    }

    /** A node that did not answer: no capacity, but the GPU sizes last seen (so "never fits" stays decidable). */
    static NodeCapacity notAnswering(String node, NodeSnapshot lastKnown) {
        if (lastKnown == null) {
            return NodeCapacity.neverAnswered(node);
        }
        List<GpuCapacity> gpus = new ArrayList<>();
        for (GpuSnapshot gpu : lastKnown.gpus()) {
            gpus.add(GpuCapacity.unknown(gpu.index(), gpu.uuid(), gpu.memTotalMb()));
        }
        return NodeCapacity.notAnswering(node, gpus);
    }

    private static boolean hostsQueueJob(GpuSnapshot gpu, List<StoredJob> here) {
        return here.stream().anyMatch(job -> job.job().assignment().gpuUuids().contains(gpu.uuid())
                || job.job().assignment().gpuUuids().isEmpty() && job.job().assignment().gpuIds().contains(gpu.index()));
    }

    private static GpuCapacity gpu(GpuSnapshot gpu, ProbeReply reply, Map<Long, Long> jobBySession,
                                   List<StoredJob> here) {
        if (!gpu.healthy() || gpu.uuid() == null) {
            return GpuCapacity.unknown(gpu.index(), gpu.uuid(), gpu.memTotalMb());
        }
        if (gpu.blind() || gpu.processes().isEmpty() && gpu.memUsedMb() > 0 && hostsQueueJob(gpu, here)) {
            // A driver that names no process while the queue's own job runs on the card (WSL) cannot
            // tell foreign memory from ours: blind, so the job is not charged twice.
            long claimed = foreignClaims(gpu, reply).stream().mapToLong(claim -> claim.exclusive()
                    ? gpu.memTotalMb() : claim.mib()).sum();
            return new GpuCapacity(gpu.index(), gpu.uuid(), dev.nvidb.scheduler.GpuState.BLIND, gpu.memTotalMb(),
                    gpu.memUsedMb(), Math.min(claimed, gpu.memTotalMb()), Map.of(), foreignClaims(gpu, reply));
        }
        Map<Long, Long> jobUse = new HashMap<>();
        long foreign = 0;
        for (GpuProcess process : gpu.processes()) {
            Long job = jobBySession.get(sessionOf(reply, process));
            if (job != null) {
                jobUse.merge(job, process.memMb(), Long::sum);
            } else {
                foreign += process.memMb();
            }
        }
        long queue = jobUse.values().stream().mapToLong(Long::longValue).sum();
        long unexplained = Math.max(0, gpu.memUsedMb() - queue);
        long external = Math.max(foreign, unexplained);
        for (GpuClaim claim : foreignClaims(gpu, reply)) {
            external = claim.exclusive() ? Math.max(external, gpu.memTotalMb()) : external + claim.unusedOn(gpu.uuid());
        }
        return GpuCapacity.measured(gpu.index(), gpu.uuid(), gpu.memTotalMb(), gpu.memUsedMb(), external, jobUse)
                .withClaims(foreignClaims(gpu, reply));
    }

    /** Other queues' live claims on this GPU, as the node reported them. */
    static List<GpuClaim> foreignClaims(GpuSnapshot gpu, ProbeReply reply) {
        return reply.snapshot().claims().foreignOn(gpu.uuid());
    }

    private static long sessionOf(ProbeReply reply, GpuProcess process) {
        ProcessSession session = reply.sessions().get(process.pid());
        return session == null ? -1 : session.sid();
    }
}
