package dev.nvidb.scheduler;

import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One node during one planning pass: its GPU slots in index order and its count of running
 * CPU-only jobs, both growing as this plan places jobs. Never seen outside the scheduler.
 */
final class ClusterNode {

    final NodeCapacity capacity;
    /** Position in the input list: the first tie-break between nodes. */
    final int order;
    /** Every GPU of the node, ascending by index. */
    final List<GpuSlot> slots;
    /** The GPUs the allowlist opens to the queue (whatever their state), ascending by index. */
    private final List<GpuSlot> offered;
    /** Sizes of the offered GPUs whose size is known, largest first. */
    private final long[] offeredTotals;
    /** Offered GPUs whose size is not known at all. */
    private final int offeredUnknownTotals;
    int cpuJobs;
    /** GPUs and MiB the node's sharing policy still lets this queue's user take, less this plan's placements. */
    private int roomGpus;
    private long roomMib;
    /** The most free memory of any target GPU here: nodes below a job's demand are skipped unsearched. */
    long maxTargetFreeMb = Long.MIN_VALUE;

    ClusterNode(NodeCapacity capacity, int order, List<Job> runningHere, long headroomMb) {
        this.capacity = capacity;
        this.order = order;
        List<GpuSlot> built = new ArrayList<>();
        capacity.gpus().stream().sorted(Comparator.comparingInt(GpuCapacity::index)).forEach(gpu -> {
            GpuBudget budget = gpu.state().known() ? GpuBudget.of(capacity.name(), gpu, runningHere, headroomMb) : null;
            built.add(new GpuSlot(this, gpu, budget));
        });
        this.slots = List.copyOf(built);
        for (Job job : runningHere) {
            if (job.spec().policy().exclusive()) {
                for (GpuSlot slot : slots) {
                    if (GpuBudget.assignedTo(job.assignment(), capacity.name(), slot.gpu)) {
                        slot.exclusiveFor = job;
                    }
                }
            }
        }
        this.offered = slots.stream().filter(slot -> capacity.allows(slot.gpu.index())).toList();
        this.offeredTotals = offered.stream().filter(slot -> slot.gpu.totalMb() != null)
                .mapToLong(slot -> -slot.gpu.totalMb()).sorted().map(negated -> -negated).toArray();
        this.offeredUnknownTotals = offered.size() - offeredTotals.length;
        refreshMaxTargetFree();
        this.cpuJobs = (int) runningHere.stream().filter(job -> job.spec().cpuOnly()).count();
        this.roomGpus = capacity.room().gpus();
        this.roomMib = capacity.room().mib();
        capacity.room().ahead().forEach(this::holdFor);
    }

    /**
     * Leaves room for another user's smallest waiting job, which the node's fair share puts first: on
     * the GPUs with the most free memory that could take it now (empty ones for a whole-card job). A
     * job that fits nowhere here now holds nothing (no card idles for it).
     */
    private void holdFor(dev.nvidb.model.QueueDemand waiting) {
        List<GpuSlot> open = new ArrayList<>();
        for (GpuSlot slot : slots) {
            if (slot.target && slot.hold == null && slot.keptFor == null && slot.exclusiveFor == null
                    && (waiting.exclusive() ? slot.empty() : slot.freeMb >= waiting.mib())) {
                open.add(slot);
            }
        }
        if (open.size() < Math.max(1, waiting.gpus())) {
            return;
        }
        open.sort((a, b) -> a.freeMb != b.freeMb ? Long.compare(b.freeMb, a.freeMb)
                : Integer.compare(a.gpu.index(), b.gpu.index()));
        for (GpuSlot slot : open.subList(0, Math.max(1, waiting.gpus()))) {
            slot.holdFor(dev.nvidb.model.GpuClaim.heldFor(waiting, slot.gpu.uuid(), waiting.mib()));
        }
        refreshMaxTargetFree();
    }

    /** Whether the node's sharing policy leaves room here for a job of this size. */
    boolean roomFor(JobSpec spec) {
        return spec.gpus() <= roomGpus && (roomMib == Long.MAX_VALUE || policyMib(spec) <= roomMib);
    }

    /** Charges a placement here against the sharing policy's room. */
    void chargeRoom(JobSpec spec) {
        if (roomGpus != Integer.MAX_VALUE) {
            roomGpus -= spec.gpus();
        }
        if (roomMib != Long.MAX_VALUE) {
            roomMib -= policyMib(spec);
        }
    }

    /** What a job counts for under a VRAM cap: its reservation on each GPU, a whole card when exclusive. */
    private long policyMib(JobSpec spec) {
        long each = spec.policy().exclusive() && offeredTotals.length > 0 ? offeredTotals[0] : spec.vramMb();
        return each * spec.gpus();
    }

    String name() {
        return capacity.name();
    }

    boolean takesJobs() {
        return capacity.takesJobs();
    }

    /** GPUs the allowlist opens to the queue (whatever their state). */
    List<GpuSlot> offered() {
        return offered;
    }

    /** Whether {@code gpus} GPUs of {@code vramMb} each could ever run here, from sizes alone. */
    Fit fit(int gpus, long vramMb, long headroomMb) {
        if (capacity.status() == NodeStatus.NEVER_ANSWERED) {
            return Fit.MAYBE;
        }
        int yes = 0;
        while (yes < offeredTotals.length && offeredTotals[yes] - headroomMb >= vramMb) {
            yes++; // offeredTotals is sorted largest first
        }
        return yes >= gpus ? Fit.YES : yes + offeredUnknownTotals >= gpus ? Fit.MAYBE : Fit.NO;
    }

    /** Recomputes {@link #maxTargetFreeMb} after a GPU here was charged. */
    void refreshMaxTargetFree() {
        long max = Long.MIN_VALUE;
        for (GpuSlot slot : slots) {
            if (slot.target && slot.freeMb > max) {
                max = slot.freeMb;
            }
        }
        maxTargetFreeMb = max;
    }

    /** True when a CPU-only job may start here under {@code maxCpuJobs} (0 = no limit). */
    boolean hasCpuSlot(int maxCpuJobs) {
        return maxCpuJobs == 0 || cpuJobs < maxCpuJobs;
    }

    /** Whether a job's size could ever be satisfied by a node, judged from GPU totals alone. */
    enum Fit {
        /** Enough allowlisted GPUs are large enough. */
        YES,
        /** Not decidable: the node's inventory or some GPU's size is unknown. */
        MAYBE,
        /** Never, whatever else runs there. */
        NO
    }
}
