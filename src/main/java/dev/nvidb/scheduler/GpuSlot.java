package dev.nvidb.scheduler;

import dev.nvidb.model.Job;

/**
 * One GPU during one planning pass: its budget, shrinking as this plan places jobs on it, and
 * the blocked job it is kept for, if any. Mutable, and never seen outside the scheduler.
 */
final class GpuSlot {

    final ClusterNode node;
    final GpuCapacity gpu;
    /** True when new jobs may go here: node takes jobs, GPU allowlisted, state known. */
    final boolean target;
    /** The budget the probe gave this GPU before this plan charged anything, or null when its state is unknown. */
    final GpuBudget budget;
    long freeMb;
    int jobCount;
    /** The earlier job that could not fit anywhere and keeps this GPU, or null. */
    Job keptFor;
    /** The {@code --exclusive} job running here (or placed here by this plan): no other job comes here. */
    Job exclusiveFor;
    /** Room left here for another user's waiting job by the node's fair share, or null. */
    dev.nvidb.model.GpuClaim hold;

    GpuSlot(ClusterNode node, GpuCapacity gpu, GpuBudget budget) {
        this.node = node;
        this.gpu = gpu;
        this.target = budget != null && node.capacity.takesJobs() && node.capacity.allows(gpu.index());
        this.budget = budget;
        this.freeMb = budget == null ? 0 : budget.freeMb();
        this.jobCount = budget == null ? 0 : budget.jobCount();
    }

    /** True when the card is large enough for {@code vramMb} at all (whatever runs on it now). */
    boolean couldEverHold(long vramMb, long headroomMb) {
        return gpu.totalMb() != null && gpu.totalMb() - headroomMb >= vramMb;
    }

    /** True when another queue job may share this GPU under {@code maxJobsPerGpu} (0 = no limit). */
    boolean hasJobSlot(int maxJobsPerGpu) {
        return maxJobsPerGpu == 0 || jobCount < maxJobsPerGpu;
    }

    /**
     * True when no process at all is on the card: its state is known, no queue job is assigned to it,
     * measured on it or placed on it by this plan, and no other process holds memory there (on a
     * blind GPU: no used memory beyond the queue's reservations). The same rule as the ownership
     * class {@code free} ({@code queue.GpuView#ownership}).
     */
    boolean empty() {
        if (budget == null || jobCount > 0 || exclusiveFor != null || hold != null) {
            return false;
        }
        return gpu.state() == GpuState.BLIND ? budget.externalMb() == 0 : gpu.externalMb() == 0;
    }

    /**
     * True when a job reserving {@code vramMb} may be placed here now: an {@code exclusive} job only on
     * an {@link #empty} GPU, any other job only where no exclusive job runs.
     */
    boolean fits(long vramMb, int maxJobsPerGpu, boolean respectKept, boolean exclusive) {
        return target && freeMb >= vramMb && hasJobSlot(maxJobsPerGpu) && !(respectKept && keptFor != null)
                && (exclusive ? empty() : exclusiveFor == null && (hold == null || !hold.exclusive()));
    }

    /** Charges a placed job's reservation (its measured use is still zero). */
    void take(long vramMb) {
        freeMb -= vramMb;
        jobCount++;
    }

    /** Leaves room here for another user's waiting job: its reservation, or the whole card. */
    void holdFor(dev.nvidb.model.GpuClaim claim) {
        hold = claim;
        freeMb -= claim.exclusive() ? freeMb : claim.mib();
    }

    /** Other queues' claims here, and the fair share's hold, as reasons name them. */
    java.util.List<dev.nvidb.model.GpuClaim> claims() {
        if (hold == null) {
            return gpu.claims();
        }
        java.util.List<dev.nvidb.model.GpuClaim> all = new java.util.ArrayList<>(gpu.claims());
        all.add(hold);
        return all;
    }

    /** "gpu-a GPU1", as reasons name a GPU. */
    String label() {
        return node.name() + " GPU" + gpu.index();
    }
}
